// Package designs registers every lock design with the simulator: importing
// it (for its side effect) is what makes a scenario's "mode" resolve. The
// designs that live in a folder of their own are one line each here; the
// rest still register from package sim itself.
package designs

import (
	_ "github.com/lockscope/lockscope/sim/redis"
	_ "github.com/lockscope/lockscope/sim/redlock"
	_ "github.com/lockscope/lockscope/sim/zookeeper" // Curator's lock on a ZooKeeper ensemble
)
