/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny static HTTP/1.1 file server for a lab on one machine: LAVA's
 * dispatcher downloads the kernel and initramfs it was given by URL
 * (python-requests), and this is what answers it.
 */
#ifndef KBENCH_LAB_SERVE_H
#define KBENCH_LAB_SERVE_H

/*
 * Serve the regular files directly in dir on host:port (host NULL:
 * 127.0.0.1; port 0: any free port): GET and HEAD of "/NAME", with
 * Content-Length, one request a connection (Connection: close), one
 * connection at a time.  Refused: other methods (405), a path that is
 * not one file name (400: "/../x", "/a/b", bad %-escapes), dotfiles,
 * missing files, non-regular files and symlinks leading out of dir (404).
 * A client silent for lava_serve_timeout seconds is dropped.
 *
 * ready(port, arg) is called once listening, with the port bound (to
 * print the URL); nonzero from it stops the server (returns -1).  One
 * line a request on stderr ("kbench: served NAME (BYTES bytes) to ADDR").
 * Runs until SIGINT or SIGTERM (our handlers meanwhile; the caller's are
 * put back), then returns 0; -1 if it cannot start (message printed).
 */
int lava_serve(const char *dir, const char *host, int port,
	       int (*ready)(int port, void *arg), void *arg);

/* Seconds a client may stay silent before it is dropped (30; tests shorten it). */
extern int lava_serve_timeout;

#endif
