#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
/* sd_journal_send() and sd_notifyf() are C variadics (and macros) that Swift cannot call:
 * the wrappers use sd_journal_sendv() with an iovec array and sd_notify() instead. */
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <sys/uio.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-daemon.h>
#endif
