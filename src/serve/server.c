/*
 * server.c — `corral serve`: the HTTP side of the playground.
 *
 * libmicrohttpd runs a thread per connection, so several browsers are
 * served at once; libcorral keeps no global mutable state, and each
 * request gets its own options.  A semaphore bounds the simulations that
 * run at the same time (--jobs), a request waiting for a slot longer than
 * its time bound is answered 503.  The server binds loopback addresses
 * only, and answers only requests whose Host (and Origin, when present)
 * names the loopback, so that a page of another site cannot reach it
 * through DNS rebinding; POST /run takes JSON from the page's own origin
 * only.  Each simulation runs in a child process (run_isolated), and a
 * watchdog cuts connections whose request does not arrive in time.
 * SIGINT or SIGTERM stop it: running simulations are killed, then the
 * daemon is stopped.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <poll.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "corral.h"
#include "serve.h"

/* A connection, for the watchdog: a request must arrive whole within
 * RECEIVE_SECONDS of the connection or of the previous answer, whatever
 * the rate at which its bytes trickle in. */
typedef struct Conn {
  MHD_socket fd;
  double deadline;      /* CLOCK_MONOTONIC; not checked while busy */
  bool busy;            /* a request is being answered */
  struct Conn *prev, *next;
} Conn;

enum { RECEIVE_SECONDS = 10 };

typedef struct Server {
  ServeConfig cfg;
  sem_t slots;
  int port;
  int stopping;
  pthread_mutex_t conns_lock;
  Conn *conns;
} Server;

static double now_mono(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The body of a POST, as it arrives. */
typedef struct Upload {
  char *data;
  size_t len;
  bool too_big;
} Upload;

enum { MAX_BODY_SLACK = 64 << 10 };

/* ------------------------------------------------------------ responses */

static enum MHD_Result send_buf(struct MHD_Connection *conn, int status, const char *type,
                                const void *data, size_t len, enum MHD_ResponseMemoryMode mode) {
  struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)data, mode);
  if (!r) return MHD_NO;
  MHD_add_response_header(r, "Content-Type", type);
  MHD_add_response_header(r, "Cache-Control", "no-store");
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(r, "Content-Security-Policy",
                          "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                          "img-src 'self' data:");
  enum MHD_Result ret = MHD_queue_response(conn, (unsigned)status, r);
  MHD_destroy_response(r);
  return ret;
}

static enum MHD_Result send_json(struct MHD_Connection *conn, int status, char *json) {
  return send_buf(conn, status, "application/json; charset=utf-8", json, strlen(json),
                  MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result send_text(struct MHD_Connection *conn, int status, const char *msg) {
  return send_buf(conn, status, "text/plain; charset=utf-8", msg, strlen(msg),
                  MHD_RESPMEM_PERSISTENT);
}

/* ----------------------------------------------------------- who asks */

/* host[:port] names the loopback: 127.x.x.x, localhost, [::1]. */
static bool loopback_name(const char *h, size_t n) {
  char buf[256];
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, h, n);
  buf[n] = 0;
  if (buf[0] == '[') {
    char *close = strchr(buf, ']');
    if (!close) return false;
    *close = 0;
    struct in6_addr a6;
    return inet_pton(AF_INET6, buf + 1, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6);
  }
  char *colon = strchr(buf, ':');
  if (colon) *colon = 0;
  if (!strcmp(buf, "localhost")) return true;
  struct in_addr a4;
  return inet_pton(AF_INET, buf, &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127;
}

/* The Host names the loopback, and the Origin, when there is one, is the
 * page's own (http://HOST): not another local port, nor "null" (a
 * sandboxed frame or a file, which any web page can make). */
static bool trusted(struct MHD_Connection *conn) {
  const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host");
  if (!host || !loopback_name(host, strlen(host))) return false;
  const char *origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
  return !origin || (!strncmp(origin, "http://", 7) && !strcmp(origin + 7, host));
}

/* POST /run takes JSON only: a form or a text/plain body (which a page of
 * any site may send without asking) is refused. */
static bool json_body(struct MHD_Connection *conn) {
  const char *t = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type");
  static const char want[] = "application/json";
  size_t n = sizeof want - 1;
  return t && !strncasecmp(t, want, n) && (t[n] == 0 || t[n] == ';' || t[n] == ' ');
}

/* ---------------------------------------------------------- watchdog */

static Conn *conn_of(struct MHD_Connection *conn) {
  const union MHD_ConnectionInfo *i =
      MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return i ? i->socket_context : NULL;
}

/* busy: a whole request is being answered; idle again: the next request
 * has RECEIVE_SECONDS to arrive */
static void conn_busy(Server *s, struct MHD_Connection *conn, bool busy) {
  Conn *c = conn_of(conn);
  if (!c) return;
  pthread_mutex_lock(&s->conns_lock);
  c->busy = busy;
  c->deadline = now_mono() + RECEIVE_SECONDS;
  pthread_mutex_unlock(&s->conns_lock);
}

static void notify_conn(void *cls, struct MHD_Connection *conn, void **socket_context,
                        enum MHD_ConnectionNotificationCode code) {
  Server *s = cls;
  pthread_mutex_lock(&s->conns_lock);
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    Conn *c = calloc(1, sizeof *c);
    if (c && i) {
      c->fd = i->connect_fd;
      c->deadline = now_mono() + RECEIVE_SECONDS;
      c->next = s->conns;
      if (s->conns) s->conns->prev = c;
      s->conns = c;
      *socket_context = c;
    } else {
      free(c);
    }
  } else if (*socket_context) {
    /* closed: MHD closes the socket after this, so the watchdog never
     * shuts down a descriptor that another connection reuses */
    Conn *c = *socket_context;
    if (c->prev) c->prev->next = c->next;
    else s->conns = c->next;
    if (c->next) c->next->prev = c->prev;
    free(c);
    *socket_context = NULL;
  }
  pthread_mutex_unlock(&s->conns_lock);
}

/* Once a second: connections whose request has not arrived in time are
 * shut down (MHD then sees the end of the stream and closes them). */
static void *watchdog(void *arg) {
  Server *s = arg;
  while (!__atomic_load_n(&s->stopping, __ATOMIC_RELAXED)) {
    struct timespec one = {1, 0};
    nanosleep(&one, NULL);
    double now = now_mono();
    pthread_mutex_lock(&s->conns_lock);
    for (Conn *c = s->conns; c; c = c->next)
      if (!c->busy && now > c->deadline) {
        shutdown(c->fd, SHUT_RDWR);
        c->deadline = now + 3600;
      }
    pthread_mutex_unlock(&s->conns_lock);
  }
  return NULL;
}

/* ------------------------------------------------------------- routes */

static const ServeAsset *find_asset(const char *url) {
  if (!strcmp(url, "/")) url = "/index.html";
  for (int i = 0; i < serve_nassets; i++)
    if (!strcmp(serve_assets[i].path, url)) return &serve_assets[i];
  return NULL;
}

/* ---------------------------------------------------------- isolation */

static char *failed_run(int http, const char *kind, const char *msg, int *status) {
  char buf[512];
  snprintf(buf, sizeof buf,
           "{\"ok\":false,\"status\":\"%s\",\"errors\":[{\"where\":\"request\",\"line\":0,"
           "\"col\":0,\"message\":\"%s\"}]}\n",
           kind, msg);
  *status = http;
  return strdup(buf);
}

/* One simulation in a process of its own (fork): a crash, an exhausted
 * memory bound (--max-memory) or a run past its time ends that process
 * and this request only.  The child writes "STATUS\n" and the JSON answer
 * into a pipe; the parent waits for them until the request's deadline
 * and a grace period, then kills it. */
static char *run_isolated(Server *s, const char *body, size_t len, int *status) {
  const ServeConfig *c = &s->cfg;
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return failed_run(503, "busy", "cannot start a run", status);
  pid_t pid = fork();
  if (pid < 0) {
    close(p[0]);
    close(p[1]);
    return failed_run(503, "busy", "cannot start a run", status);
  }
  if (pid == 0) {
    close(p[0]);
    if (c->max_memory) {
      struct rlimit rl = {c->max_memory, c->max_memory};
      setrlimit(RLIMIT_AS, &rl);
    }
    /* the CPU clock too, should the deadline checks miss a loop */
    struct rlimit cpu = {(rlim_t)c->max_seconds + 2, (rlim_t)c->max_seconds + 3};
    setrlimit(RLIMIT_CPU, &cpu);
    int st;
    char *json = api_run(c, body, len, &st);
    char head[16];
    int hn = snprintf(head, sizeof head, "%d\n", st);
    size_t n = strlen(json), off = 0;
    bool ok = write(p[1], head, (size_t)hn) == hn;
    while (ok && off < n) {
      ssize_t w = write(p[1], json + off, n - off);
      if (w < 0 && errno == EINTR) continue;
      ok = w > 0;
      if (ok) off += (size_t)w;
    }
    _exit(ok ? 0 : 1);
  }
  close(p[1]);
  double until = now_mono() + c->max_seconds + 5;
  char *out = NULL;
  size_t n = 0, cap = 0;
  bool eof = false, late = false;
  while (!eof) {
    double left = until - now_mono();
    if (left <= 0 || __atomic_load_n(&s->stopping, __ATOMIC_RELAXED)) {
      late = true;
      break;
    }
    struct pollfd pf = {p[0], POLLIN, 0};
    int k = poll(&pf, 1, left > 1 ? 1000 : (int)(left * 1000) + 1);
    if (k < 0 && errno != EINTR) break;
    if (k <= 0) continue;
    if (n + 65536 > cap) {
      cap = 2 * cap + 65536;
      char *b = realloc(out, cap + 1);
      if (!b) break;
      out = b;
    }
    ssize_t r = read(p[0], out + n, cap - n);
    if (r > 0) n += (size_t)r;
    else if (r == 0) eof = true;
    else if (errno != EINTR && errno != EAGAIN) break;
  }
  close(p[0]);
  if (!eof) kill(pid, SIGKILL);
  int ws = 0;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {}
  char *nl = out && n ? memchr(out, '\n', n) : NULL;
  if (eof && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && nl) {
    out[n] = 0;
    *status = atoi(out);
    memmove(out, nl + 1, n - (size_t)(nl + 1 - out) + 1);
    return out;
  }
  free(out);
  if (late) {
    char msg[128];
    snprintf(msg, sizeof msg, "the run was stopped: more than %g s", c->max_seconds);
    return failed_run(200, "stopped", msg, status);
  }
  char msg[160];
  if (WIFSIGNALED(ws))
    snprintf(msg, sizeof msg, "the run ended abnormally (signal %d%s)", WTERMSIG(ws),
             WTERMSIG(ws) == SIGXCPU ? ": CPU time" : "");
  else
    snprintf(msg, sizeof msg, "the run ended abnormally (status %d%s)", WEXITSTATUS(ws),
             c->max_memory ? ", perhaps out of memory (--max-memory)" : "");
  return failed_run(500, "crashed", msg, status);
}

static enum MHD_Result run_request(Server *s, struct MHD_Connection *conn, Upload *u) {
  if (u->too_big) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "{\"ok\":false,\"status\":\"too-large\",\"errors\":[{\"where\":\"request\",\"line\":0,"
             "\"col\":0,\"message\":\"request body too large\"}]}\n");
    return send_json(conn, 413, strdup(msg));
  }
  /* wait for a simulation slot at most as long as a run may take */
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += (time_t)s->cfg.max_seconds + 1;
  int rc;
  while ((rc = sem_timedwait(&s->slots, &until)) != 0 && errno == EINTR) {}
  if (rc != 0)
    return send_json(conn, 503,
                     strdup("{\"ok\":false,\"status\":\"busy\",\"errors\":[{\"where\":\"request\","
                            "\"line\":0,\"col\":0,\"message\":\"the server is busy, try again\"}]}\n"));
  int status;
  char *json = run_isolated(s, u->data ? u->data : "", u->len, &status);
  sem_post(&s->slots);
  return send_json(conn, status, json);
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url,
                               const char *method, const char *version,
                               const char *upload_data, size_t *upload_data_size,
                               void **con_cls) {
  (void)version;
  Server *s = cls;
  bool post = !strcmp(method, "POST");
  if (post && !*con_cls) {
    /* first call: headers only */
    Upload *u = calloc(1, sizeof *u);
    if (!u) return MHD_NO;
    *con_cls = u;
    return MHD_YES;
  }
  if (post) {
    Upload *u = *con_cls;
    if (*upload_data_size) {
      /* two texts of max_input bytes, JSON escaping aside */
      size_t cap = 2 * s->cfg.max_input + MAX_BODY_SLACK;
      if (!u->too_big && u->len + *upload_data_size <= cap) {
        char *d = realloc(u->data, u->len + *upload_data_size + 1);
        if (!d) return MHD_NO;
        u->data = d;
        memcpy(u->data + u->len, upload_data, *upload_data_size);
        u->len += *upload_data_size;
        u->data[u->len] = 0;
      } else {
        u->too_big = true;
      }
      *upload_data_size = 0;
      return MHD_YES;
    }
    conn_busy(s, conn, true);
    if (!trusted(conn)) return send_text(conn, 403, "forbidden: not a loopback host or origin\n");
    if (strcmp(url, "/run") != 0) return send_text(conn, 404, "not found\n");
    if (!json_body(conn))
      return send_text(conn, 415, "unsupported media type: POST /run takes application/json\n");
    return run_request(s, conn, u);
  }
  conn_busy(s, conn, true);
  if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
    return send_text(conn, 405, "method not allowed\n");
  if (!trusted(conn)) return send_text(conn, 403, "forbidden: not a loopback host or origin\n");
  if (!strcmp(url, "/api/info")) return send_json(conn, 200, api_info(&s->cfg));
  const ServeAsset *a = find_asset(url);
  if (!a) return send_text(conn, 404, "not found\n");
  return send_buf(conn, 200, a->type, a->data, a->len, MHD_RESPMEM_PERSISTENT);
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                      enum MHD_RequestTerminationCode toe) {
  (void)toe;
  conn_busy(cls, conn, false);
  Upload *u = *con_cls;
  if (u) {
    free(u->data);
    free(u);
  }
  *con_cls = NULL;
}

/* --------------------------------------------------------------- models */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.cat files of dir (not stdlib.cat, which every model includes). */
static void add_models(ServeConfig *c, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 4, ".cat") != 0) continue;
    if (!strcmp(e->d_name, "stdlib.cat")) continue;
    bool dup = false;
    for (int i = 0; i < c->nmodels; i++) dup |= !strcmp(c->models[i], e->d_name);
    if (dup) continue;
    c->models = realloc(c->models, sizeof(char *) * (size_t)(c->nmodels + 1));
    if (!c->models) abort();
    c->models[c->nmodels++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(c->models, (size_t)c->nmodels, sizeof(char *), cmp_str);
}

static bool on_path(const char *prog) {
  const char *path = getenv("PATH");
  if (!path) return false;
  char *dup = strdup(path);
  bool found = false;
  for (char *dir = strtok(dup, ":"); dir && !found; dir = strtok(NULL, ":")) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s/%s", *dir ? dir : ".", prog);
    found = access(buf, X_OK) == 0;
  }
  free(dup);
  return found;
}

/* --------------------------------------------------------- command line */

static const char usage[] =
    "usage: corral serve [--port N] [--host ADDR] [--jobs N] [--max-seconds S]\n"
    "                    [--max-candidates N] [--max-input BYTES] [--max-memory BYTES]\n"
    "                    [herd options]\n"
    "  A playground page and JSON API (POST /run) on http://ADDR:N/.\n"
    "  --port N           TCP port (default 8080; 0: any free port)\n"
    "  --host ADDR        a loopback address (default 127.0.0.1)\n"
    "  --jobs N           simulations at the same time (default 2)\n"
    "  --max-seconds S    wall-clock bound per request (default 10)\n"
    "  --max-candidates N candidates bound per request (default 2000000)\n"
    "  --max-input BYTES  size bound of a test and of a pasted model (default 262144)\n"
    "  --max-memory BYTES memory bound of each run's process (default 2147483648; 0: none)\n"
    "  herd options (-I DIR, -set-libdir DIR, -variant ...) apply to every run.\n";

static bool parse_num(const char *s, double lo, double hi, double *v) {
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return s[0] && !*end && !errno && *v >= lo && *v <= hi;
}

static bool bind_addr(const char *host, int port, struct sockaddr_storage *ss, socklen_t *len) {
  memset(ss, 0, sizeof *ss);
  if (!strcmp(host, "localhost")) host = "127.0.0.1";
  struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
  struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
  if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
    if ((ntohl(a4->sin_addr.s_addr) >> 24) != 127) return false;
    a4->sin_family = AF_INET;
    a4->sin_port = htons((uint16_t)port);
    *len = sizeof *a4;
    return true;
  }
  if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
    if (!IN6_IS_ADDR_LOOPBACK(&a6->sin6_addr)) return false;
    a6->sin6_family = AF_INET6;
    a6->sin6_port = htons((uint16_t)port);
    *len = sizeof *a6;
    return true;
  }
  return false;
}

/* Connection threads run simulations: give them the stack the main
 * thread has (the cat interpreter bounds its recursion by it). */
static size_t thread_stack(void) {
  struct rlimit rl;
  size_t s = (size_t)16 << 20;
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur > s)
    s = rl.rlim_cur < ((size_t)256 << 20) ? (size_t)rl.rlim_cur : (size_t)256 << 20;
  return s;
}

int serve_main(int argc, char **argv, const char *libdir) {
  Server *s = calloc(1, sizeof *s);
  if (!s) return 2;
  ServeConfig *c = &s->cfg;
  c->max_seconds = 10;
  c->max_candidates = 2000000;
  c->max_input = 256 << 10;
  c->max_graphs = 20;
  c->max_memory = (uint64_t)2 << 30;
  c->stopping = &s->stopping;
  const char *host = "127.0.0.1";
  int port = 8080, jobs = 2;
  char *lib = strdup(libdir);
  corral_options *check = corral_options_new(lib);
  int status = 2;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    double d;
    if (!strcmp(a, "--help") || !strcmp(a, "-help")) {
      fputs(usage, stdout);
      status = 0;
      goto out;
    }
    if (!strncmp(a, "--", 2)) {
      if (!v) {
        fprintf(stderr, "corral serve: option %s needs an argument\n", a);
        goto out;
      }
      i++;
      if (!strcmp(a, "--port") && parse_num(v, 0, 65535, &d)) port = (int)d;
      else if (!strcmp(a, "--host")) host = v;
      else if (!strcmp(a, "--jobs") && parse_num(v, 1, 64, &d)) jobs = (int)d;
      else if (!strcmp(a, "--max-seconds") && parse_num(v, 0.1, 3600, &d)) c->max_seconds = d;
      else if (!strcmp(a, "--max-candidates") && parse_num(v, 0, 1e15, &d))
        c->max_candidates = (uint64_t)d;
      else if (!strcmp(a, "--max-input") && parse_num(v, 1024, 64 << 20, &d))
        c->max_input = (size_t)d;
      else if (!strcmp(a, "--max-memory") && parse_num(v, 0, 1e15, &d) &&
               (d == 0 || d >= 64 << 20))
        c->max_memory = (uint64_t)d;
      else {
        fprintf(stderr, "corral serve: bad option %s %s\n%s", a, v, usage);
        goto out;
      }
      continue;
    }
    int ar = a[0] == '-' ? corral_option_arity(a) : -1;
    if (ar < 0 || (ar == 1 && !v)) {
      fprintf(stderr, "corral serve: %s: unknown option or missing argument\n%s", a, usage);
      goto out;
    }
    if (!strcmp(a, "-o")) {
      fprintf(stderr, "corral serve: -o: the server writes no files\n");
      goto out;
    }
    char *msg = NULL;
    if (corral_option(check, a, ar ? v : NULL, &msg) != 0) {
      fprintf(stderr, "corral serve: %s\n", msg ? msg : "bad option");
      free(msg);
      goto out;
    }
    c->opts = realloc(c->opts, sizeof(char *) * (size_t)(2 * c->nopts + 2));
    if (!c->opts) abort();
    c->opts[2 * c->nopts] = strdup(a);
    c->opts[2 * c->nopts + 1] = ar ? strdup(v) : NULL;
    c->nopts++;
    if (!strcmp(a, "-set-libdir")) {
      free(lib);
      lib = strdup(v);
    }
    if (ar) i++;
  }
  c->libdir = lib;
  /* the models offered: the library's, then those of -I directories */
  add_models(c, lib);
  for (int i = 0; i < c->nopts; i++)
    if (!strcmp(c->opts[2 * i], "-I")) {
      const char *dir = c->opts[2 * i + 1];
      char buf[PATH_MAX];
      if (dir[0] == '+') snprintf(buf, sizeof buf, "%s/%s", lib, dir + 1);
      else snprintf(buf, sizeof buf, "%s", dir);
      add_models(c, buf);
    }
  c->have_dot = on_path("dot");

  struct sockaddr_storage ss;
  socklen_t sl;
  if (!bind_addr(host, port, &ss, &sl)) {
    fprintf(stderr, "corral serve: --host %s: not a loopback address (127.0.0.1, ::1, localhost)\n",
            host);
    goto out;
  }
  sem_init(&s->slots, 0, (unsigned)jobs);
  pthread_mutex_init(&s->conns_lock, NULL);
  /* signals go to sigwait below, not to the daemon's threads */
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &sigs, NULL);
  signal(SIGPIPE, SIG_IGN);
  unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                   MHD_USE_ERROR_LOG | (ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0);
  struct MHD_Daemon *d = MHD_start_daemon(
      flags, (uint16_t)port, NULL, NULL, handler, s, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
      MHD_OPTION_NOTIFY_COMPLETED, completed, s, MHD_OPTION_NOTIFY_CONNECTION, notify_conn, s,
      MHD_OPTION_CONNECTION_LIMIT, 64u, MHD_OPTION_CONNECTION_TIMEOUT, 30u,
      MHD_OPTION_THREAD_STACK_SIZE, thread_stack(), MHD_OPTION_END);
  if (!d) {
    fprintf(stderr, "corral serve: cannot listen on %s port %d (%s)\n", host, port,
            strerror(errno));
    sem_destroy(&s->slots);
    goto out;
  }
  pthread_t dog;
  bool dog_started = pthread_create(&dog, NULL, watchdog, s) == 0;
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  s->port = info ? info->port : port;
  bool v6 = ss.ss_family == AF_INET6;
  printf("corral serve: http://%s%s%s:%d/ (%d models, graphviz %s; Ctrl-C stops)\n",
         v6 ? "[" : "", host, v6 ? "]" : "", s->port, c->nmodels,
         c->have_dot ? "found" : "not found: graphs as dot text");
  fflush(stdout);
  int sig;
  sigwait(&sigs, &sig);
  __atomic_store_n(&s->stopping, 1, __ATOMIC_RELAXED);
  if (dog_started) pthread_join(dog, NULL);
  MHD_stop_daemon(d);
  sem_destroy(&s->slots);
  printf("corral serve: stopped\n");
  status = 0;
out:
  corral_options_free(check);
  for (int i = 0; i < 2 * c->nopts; i++) free(c->opts[i]);
  free(c->opts);
  for (int i = 0; i < c->nmodels; i++) free(c->models[i]);
  free(c->models);
  free(lib);
  free(s);
  return status;
}
