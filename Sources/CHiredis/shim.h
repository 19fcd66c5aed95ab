#ifndef CHIREDIS_SHIM_H
#define CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>

// Prefixed helpers for what Swift imports awkwardly. Nothing here keeps state.

/// `redisContext.errstr` is a `char[128]`, which Swift imports as a 128-element tuple.
static inline const char *CHiredis_errstr(const redisContext *c) { return c->errstr; }

/// `redisCommandArgv` returns `void *`; this names the reply type.
static inline redisReply *CHiredis_commandArgv(redisContext *c, int argc, const char **argv, const size_t *argvlen) {
    return (redisReply *)redisCommandArgv(c, argc, argv, argvlen);
}

#endif
