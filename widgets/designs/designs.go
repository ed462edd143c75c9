// Package designs registers every lock design's tab with the window:
// importing it (for its side effect, as app does) is what gives the window
// a tab per design. Each design's window side lives in a folder of its own
// (widgets/<design>/: its state picture and its tab) and registers itself
// from init with designtab.Register; it is one line here, as it is in
// sim/designs on the simulator's side.
package designs

import (
	_ "github.com/lockscope/lockscope/widgets/etcd"      // the keyspace, its leases and watches
	_ "github.com/lockscope/lockscope/widgets/redis"     // the key with its TTL bar on each server
	_ "github.com/lockscope/lockscope/widgets/redlock"   // the vote tally over N masters
	_ "github.com/lockscope/lockscope/widgets/zookeeper" // the znode tree, its sessions and watches
)
