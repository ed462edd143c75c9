package redis

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// redissonRelease is what a Redisson release does with its lock's
// commands, each read at the release's tag in redisson/redisson.
type redissonRelease struct {
	// resendScripts: the lock and unlock scripts are resent after a
	// response timeout like any command. Up to 3.36 they went through
	// evalWriteAsync; since 3.37 tryLockInnerAsync and unlockInnerAsync
	// call evalWriteSyncedNoRetryAsync, and RedisExecutor.isResendAllowed
	// refuses a noRetry command. (With a replica they still travel in the
	// WAIT batch, whose executor is built with noRetry false: see synced.)
	resendScripts bool
	// retryAttempts is BaseConfig's retryAttempts default: resends after
	// the first attempt.
	retryAttempts int
	// jitter: retryDelay is EqualJitterDelay(1 s, 2 s) (since 3.48);
	// without it a constant retryInterval of 1500 ms.
	jitter bool
	// dropOnFailure: a renewal that failed (all its attempts timed out)
	// removes the lock from renewal for good (RedissonBaseLock.
	// renewExpiration up to 3.43); since 3.44 RenewalTask.run logs the
	// error and schedules the next run.
	dropOnFailure bool
	// synced is checkLockSyncedSlaves with WAIT (since 3.17, default
	// true): with a replica, every lock, unlock and renewal script is
	// sent in a batch with WAIT availableSlaves slavesSyncTimeout; if no
	// replica acknowledged, NoSyncedSlavesException.
	synced bool
	// latch: the unlock script keeps an unlock latch per request id.
	latch bool
	// fair: the lock is RFairLock (fairlock.go), its script queueing the
	// waiters in the order they first tried.
	fair bool
}

// releases are the Redisson releases Client names.
var releases = map[string]redissonRelease{
	// Redisson 4.7.0 (redisson/redisson tag redisson-4.7.0, 2026-08-04):
	// BaseConfig retryAttempts = 4, retryDelay = new EqualJitterDelay(
	// Duration.ofMillis(1000), Duration.ofSeconds(2)), timeout = 3000;
	// Config lockWatchdogTimeout = 30000, checkLockSyncedSlaves = true,
	// slavesSyncTimeout = 1000; RedissonLock.tryLockInnerAsync and
	// unlockInnerAsync: evalWriteSyncedNoRetryAsync; renewal/RenewalTask.run
	// schedules again after an error.
	ClientRedisson: {retryAttempts: 4, jitter: true, synced: true, latch: true},
	// RFairLock of the same release: RLock's client (RedissonFairLock
	// extends RedissonLock; its scripts go by syncedEvalNoRetry and
	// evalWriteSyncedNoRetryAsync as RLock's do) with the fair scripts.
	ClientRedissonFair: {retryAttempts: 4, jitter: true, synced: true, latch: true, fair: true},
	// Redisson 3.16.8 (tag redisson-3.16.8), the last release before
	// checkLockSyncedSlaves (3.17): BaseConfig retryAttempts = 3,
	// retryInterval = 1500; RedissonLock.tryLockInnerAsync and
	// unlockInnerAsync: evalWriteAsync, resent (as up to 3.36);
	// RedissonBaseLock.renewExpiration: on an error
	// EXPIRATION_RENEWAL_MAP.remove, renewal over (as up to 3.43).
	ClientRedisson316: {resendScripts: true, retryAttempts: 3, dropOnFailure: true},
}

// releaseOf is the scenario's Redisson release; ok false for the plain
// client.
func releaseOf(sc *sim.Scenario) (redissonRelease, bool) {
	r, ok := releases[Client.Of(sc)]
	return r, ok
}

// retryDelay is the pause before attempt+1 (RedisExecutor: retryInterval
// = retryStrategy.calcDelay(attempt), taken when attempt started; and
// ServiceManager.execute's calcDelay(attempts)). EqualJitterDelay.
// calcDelay: min(1000 ms << attempt, 2000 ms), half of it plus a uniform
// draw in [0, half] ms: 0.5–1 s after the first attempt, 1–2 s after
// each later one.
func (rel redissonRelease) retryDelay(ctx sim.Ctx, attempt int) time.Duration {
	if !rel.jitter {
		return RetryInterval
	}
	exp := int64(2000)
	if attempt == 0 {
		exp = 1000
	}
	half := exp / 2
	return time.Duration(half+ctx.Rand().Int64N(half+1)) * time.Millisecond
}

// RetryInterval is the constant retryInterval, 1500 ms, of releases up to
// 3.47 (redisson/redisson tag redisson-3.16.8 BaseConfig.java).
const RetryInterval = 1500 * time.Millisecond

// latchTTL is the unlock latch's PX (RedissonBaseLock.unlockInnerAsync at
// 4.7.0): (timeout + retryDelay.calcDelay(retryAttempts)) × retryAttempts,
// with calcDelay(4) a draw in 1–2 s: 16–20 s.
func (rel redissonRelease) latchTTL(ctx sim.Ctx) time.Duration {
	return (RequestTimeout + rel.retryDelay(ctx, rel.retryAttempts)) * time.Duration(rel.retryAttempts)
}
