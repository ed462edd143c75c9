package dynamodb

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// The settings the DynamoDB lock's scenarios have of their own
// (Traits.Options), in the order the scenario file writes them. The
// scenario's ttl is the client's leaseDuration.
var (
	// HeartbeatPeriod is AmazonDynamoDBLockClientOptions' heartbeatPeriod:
	// how often the background thread rewrites the held item's
	// recordVersionNumber.
	HeartbeatPeriod = sim.NewDuration(sim.Option{Key: "heartbeatPeriod",
		Refusal: sim.OnlyReaders("heartbeatPeriod", "field.heartbeatPeriod", "only for %s (the lock client's heartbeat thread)"),
		Words:   "heartbeatPeriod", Describe: sim.DescribeAsIs}, DefaultHeartbeatPeriod, periodCheck("heartbeatPeriod"))
	// RefreshPeriod is AcquireLockOptions' refreshPeriod: how long a
	// waiter sleeps between two reads of the item.
	RefreshPeriod = sim.NewDuration(sim.Option{Key: "refreshPeriod",
		Refusal: sim.OnlyReaders("refreshPeriod", "field.refreshPeriod", "only for %s (acquireLock's polling)"),
		Words:   "refreshPeriod", Describe: sim.DescribeAsIs}, DefaultBuffer, periodCheck("refreshPeriod"))
	// SafeTime is the SessionMonitor's safeTimeWithoutHeartbeat
	// (AcquireLockOptions.withSessionMonitor); 0 is no monitor. Its
	// callback, once the holder has gone that long on its own clock
	// without a successful heartbeat, is the application's: here it
	// tells the worker, which looks before its write.
	SafeTime = sim.NewDuration(sim.Option{Key: "safeTime",
		Refusal: sim.OnlyReaders("safeTime", "field.safeTime", "only for %s (the session monitor's safeTimeWithoutHeartbeat)"),
		Words:   "safeTime", Describe: sim.DescribeAsIs}, 0, func(d sim.Duration) error {
		if d.D() < 0 || d.D() > time.Hour {
			return sim.FieldErr("safeTime", sim.Say("field.dynamodbSafeTimeRange", "value", d.D().String()), "%v, want 0 to 1h", d.D())
		}
		return nil
	})
	// CheckExpired is the application looking at lockItem.isExpired()
	// just before its write, as the library's README and class comment
	// advise ("you can call lockItem.isExpired() to periodically check to
	// make sure you still have the lock"): an item whose lease has run
	// out on the holder's own clock since its last heartbeat is not
	// written under.
	CheckExpired = sim.NewBool(sim.Option{Key: "checkExpired", Refusal: sim.OnlyFor("checkExpired"),
		Words: "checkExpired", Describe: sim.DescribeWhenOn}, false)
)

// options are the DynamoDB lock's, in their order.
var options = []*sim.Option{HeartbeatPeriod.Option, RefreshPeriod.Option, SafeTime.Option, CheckExpired.Option}

// periodCheck refuses a period under 10 ms or over a minute.
func periodCheck(key string) func(d sim.Duration) error {
	return func(d sim.Duration) error {
		if d.D() < 10*time.Millisecond || d.D() > time.Minute {
			return sim.FieldErr(key, sim.Say("field.dynamodbPeriod", "value", d.D().String()), "%v, want 10ms to 1m", d.D())
		}
		return nil
	}
}
