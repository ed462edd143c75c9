package dynamodb_test

import (
	"testing"

	"github.com/lockscope/lockscope/sim/simtest"
)

// The tab's trade-off map, leaseDuration × pause, says what the lease
// means: a pause well under it is safe (the heartbeat after it changes the
// version before any waiter's count runs out), one well over it is not.
func TestTradeoffMapLeaseByPause(t *testing.T) { simtest.AssertLeaseByPauseMap(t, "dynamodb") }
