// hiredis, the Redis client library behind pb's Redis backend. Only
// PasteboardRedis imports this module; the header comes from the include
// path that pkg-config gives.
#ifndef PB_CHIREDIS_SHIM_H
#define PB_CHIREDIS_SHIM_H

#include <hiredis.h>

/// The context's error text (a char array, which Swift sees as a tuple).
static inline const char *pb_redis_errstr(const redisContext *c) { return c->errstr; }

#endif
