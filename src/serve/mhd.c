/*
 * mhd.c — open libmicrohttpd at run time (see mhd.h for why).
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mhd.h"

/* Debian's libmicrohttpd12 installs the first; the second is the
 * development link, for a library built elsewhere. */
static const char *const sonames[] = {"libmicrohttpd.so.12", "libmicrohttpd.so"};

bool mhd_load(Mhd *m) {
  void *h = NULL;
  const char *why = "";
  for (size_t i = 0; i < sizeof sonames / sizeof *sonames && !h; i++) {
    h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    if (!h && i == 0) why = dlerror();
  }
  if (!h) {
    fprintf(stderr, "corral serve: cannot load libmicrohttpd (%s); install the package "
                    "libmicrohttpd12\n", why);
    return false;
  }
  struct {
    const char *name;
    void **slot;
  } syms[] = {
      {"MHD_start_daemon", (void **)&m->start_daemon},
      {"MHD_stop_daemon", (void **)&m->stop_daemon},
      {"MHD_get_daemon_info", (void **)&m->get_daemon_info},
      {"MHD_create_response_from_buffer", (void **)&m->create_response_from_buffer},
      {"MHD_add_response_header", (void **)&m->add_response_header},
      {"MHD_queue_response", (void **)&m->queue_response},
      {"MHD_destroy_response", (void **)&m->destroy_response},
      {"MHD_lookup_connection_value", (void **)&m->lookup_connection_value},
  };
  for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
    void *f = dlsym(h, syms[i].name);
    if (!f) {
      fprintf(stderr, "corral serve: libmicrohttpd has no %s\n", syms[i].name);
      dlclose(h);
      return false;
    }
    memcpy(syms[i].slot, &f, sizeof f); /* object to function pointer */
  }
  return true; /* the library stays open for the life of the process */
}
