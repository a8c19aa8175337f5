// libsodium's secretbox, which encrypts sensitive content on the client
// before it reaches a Redis server. Only PasteboardRedis imports this
// module.
#ifndef PB_CSODIUM_SHIM_H
#define PB_CSODIUM_SHIM_H

#include <sodium.h>

#endif
