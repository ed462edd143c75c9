// Package designs registers every lock design with the simulator: importing
// it (for its side effect) is what makes a scenario's "mode" resolve. Each
// design lives in a folder of its own and registers itself from init; it
// is one line here.
package designs

import (
	_ "github.com/lockscope/lockscope/sim/etcd"      // clientv3's Session and Mutex on an etcd cluster
	_ "github.com/lockscope/lockscope/sim/redis"     // Redisson's RLock on one Redis master (and its replica)
	_ "github.com/lockscope/lockscope/sim/redlock"   // go-redsync over N independent Redis masters
	_ "github.com/lockscope/lockscope/sim/zookeeper" // Curator's lock on a ZooKeeper ensemble
)
