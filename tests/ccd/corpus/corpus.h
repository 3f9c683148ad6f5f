/* Shared by the corpus programs, so dependency files list a header. */
#ifndef CORPUS_H
#define CORPUS_H
#ifdef __CCD__
#define THROUGH_CCD 1
#else
#define THROUGH_CCD 0
#endif
int printf(const char *fmt, ...);
#endif
