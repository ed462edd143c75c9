// Package redis is the single-instance Redis lock: a master (and, with a
// replica, Sentinel's failover to it: a delay on the failover fault, or
// with sentinels Redis Sentinel's processes, sentinel.go) holding the
// lock key with SET NX PX, and clients running Redisson's RLock (its lock and unlock scripts, the
// watchdog). Redlock's masters are this package's Server. Its sim.Mode is
// the value Mode, which the list of designs (package designs) installs at
// start. Its figures and their sources are in redis.go; ARCHITECTURE.md is
// the map of the whole program.
package redis
