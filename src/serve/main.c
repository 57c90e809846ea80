/*
 * main.c — corral-serve, the program `corral serve` runs.
 *
 * The server is a program of its own so that corral itself links no
 * libmicrohttpd (and, through it, GnuTLS and its dependencies): corral is
 * started once per test by herd7-style scripts, and loading those
 * libraries cost more than simulating a small test.
 */
#include <stdlib.h>

#include "cli/cli.h"
#include "serve.h"

int main(int argc, char **argv) {
  char *libdir = default_libdir();
  int st = serve_main(argc, argv, libdir);
  free(libdir);
  return st;
}
