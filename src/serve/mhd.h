/*
 * mhd.h — libmicrohttpd, loaded when `corral serve` starts.
 *
 * Linking the library into the binary made every corral process pay for
 * loading it and its dependencies (GnuTLS, p11-kit, libtasn1, gmp...):
 * two thirds of the instructions of a small test went to the dynamic
 * loader and GnuTLS's constructors, and herd7 users run thousands of
 * small tests one process each.  Only the server needs the library, so
 * it opens it with dlopen and calls it through this table.
 */
#ifndef CORRAL_SERVE_MHD_H
#define CORRAL_SERVE_MHD_H

#include <stdbool.h>
#include <stdint.h>

#include <microhttpd.h>

typedef struct Mhd {
  struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port,
                                      MHD_AcceptPolicyCallback apc, void *apc_cls,
                                      MHD_AccessHandlerCallback dh, void *dh_cls, ...);
  void (*stop_daemon)(struct MHD_Daemon *daemon);
  const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *daemon,
                                                  enum MHD_DaemonInfoType info_type, ...);
  struct MHD_Response *(*create_response_from_buffer)(size_t size, void *buffer,
                                                       enum MHD_ResponseMemoryMode mode);
  enum MHD_Result (*add_response_header)(struct MHD_Response *response, const char *header,
                                         const char *content);
  enum MHD_Result (*queue_response)(struct MHD_Connection *connection, unsigned int status_code,
                                    struct MHD_Response *response);
  void (*destroy_response)(struct MHD_Response *response);
  const char *(*lookup_connection_value)(struct MHD_Connection *connection,
                                         enum MHD_ValueKind kind, const char *key);
} Mhd;

/* Open the library and fill *m; false with a message on stderr. */
bool mhd_load(Mhd *m);

#endif
