#ifndef CLIBNOTIFY_SHIM_H
#define CLIBNOTIFY_SHIM_H
#include <libnotify/notify.h>
#endif
