package dynamodb

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// The lock client's figures. Every one is read from
// awslabs/amazon-dynamodb-lock-client at commit
// 601eab15fc03aef4aa70550f3963f4d0651ad08e (release 1.1.0 and after),
// src/main/java/com/amazonaws/services/dynamodbv2/.
const (
	// DefaultLeaseDuration is AmazonDynamoDBLockClientOptions'
	// DEFAULT_LEASE_DURATION, 20 (DEFAULT_TIME_UNIT seconds): the
	// leaseDuration the holder writes into the item, which a waiter
	// counts on its own clock.
	DefaultLeaseDuration = 20 * time.Second
	// DefaultHeartbeatPeriod is DEFAULT_HEARTBEAT_PERIOD, 5 s: the
	// background thread (DEFAULT_CREATE_HEARTBEAT_BACKGROUND_THREAD true)
	// sends a heartbeat for every lock the client holds, then sleeps
	// max(heartbeatPeriod − the time the heartbeats took, 0)
	// (AmazonDynamoDBLockClient.run).
	DefaultHeartbeatPeriod = 5 * time.Second
	// DefaultBuffer is AmazonDynamoDBLockClient's DEFAULT_BUFFER_MS,
	// 1000: acquireLock's refreshPeriod and its additionalTimeToWaitForLock
	// when the caller sets neither.
	DefaultBuffer = time.Second
	// ReadTimeout is how long a request waits for DynamoDB's answer: the
	// AWS SDK for Java v2's default socket read timeout, 30 s
	// (aws/aws-sdk-java-v2, http-client-spi/src/main/java/software/amazon/
	// awssdk/http/SdkHttpConfigurationOption.java,
	// DEFAULT_SOCKET_READ_TIMEOUT). An unanswered request then fails with
	// an SdkClientException; the SDK's own retries are left out
	// (sim/conformance/DIFFERENCES.md).
	ReadTimeout = 30 * time.Second
)

// LockKey is the lock item's partition key (the library's column is "key",
// DEFAULT_PARTITION_KEY_NAME).
const LockKey = "lock"

// TableName is the one server's node name: a DynamoDB table, which the
// simulator runs as one process (DynamoDB's replication across
// availability zones is inside it).
const TableName = "dynamodb-1"

// Mode is the design's simulator side, a value: the list of designs
// (package designs) installs it with sim.AddMode at start.
var Mode sim.Mode = dynamodbMode{}

type dynamodbMode struct{}

func (dynamodbMode) Name() string { return "dynamodb" }

// fencingRefusal: the recordVersionNumber is a random UUID
// (AmazonDynamoDBLockClient.generateRecordVersionNumber), not an ordered
// token, and the library offers no other; the storage has nothing to
// compare (awslabs/amazon-dynamodb-lock-client#1, #62).
var fencingRefusal = sim.FieldErr("fencing", sim.Say("field.dynamodbFencing"),
	"the DynamoDB lock has no fencing token: its recordVersionNumber is a random UUID, not ordered, and guards only the lock item (awslabs/amazon-dynamodb-lock-client#1)")

// dynamodbTraits: one table, a lease the waiter times itself, no token.
var dynamodbTraits = sim.Traits{
	Place:     6,
	LeaseWord: "leaseDuration", ServerWord: "servers", Token: sim.NoToken,
	Options: options,
	Refusals: map[string]error{
		"fencing":  fencingRefusal,
		"plainDel": sim.FieldErr("plainDel", sim.Say("field.dynamodbPlainDel"), "only for redis; the DynamoDB lock client releases with a DeleteItem conditioned on its owner and recordVersionNumber"),
		"replica":  sim.FieldErr("replica", sim.Say("field.dynamodbReplica"), "only for redis; a DynamoDB table replicates inside AWS"),
		"watchdog": sim.FieldErr("watchdog", sim.Say("field.dynamodbWatchdog"), "only for redis and redlock; the DynamoDB lock client heartbeats every heartbeatPeriod by itself"),
	},
}

func (dynamodbMode) Traits() sim.Traits { return dynamodbTraits }

// Defaults: the library's leaseDuration; the application calls acquireLock
// again whenever one gives up (tries 0).
func (dynamodbMode) Defaults(sc *sim.Scenario) {
	sc.TTL = sim.Duration(DefaultLeaseDuration)
	sc.Tries = 0
}

// Validate checks the session monitor's safe time as
// AmazonDynamoDBLockClient.sessionMonitorArgsValidate does: above the
// heartbeat period, below the lease duration.
func (dynamodbMode) Validate(sc *sim.Scenario) error {
	safe := SafeTime.Of(sc).D()
	if safe == 0 {
		return nil
	}
	if hb := HeartbeatPeriod.Of(sc).D(); safe <= hb {
		return sim.FieldErr("safeTime", sim.Say("field.dynamodbSafeTime.heartbeat", "safe", safe.String(), "heartbeat", hb.String()),
			"%v: safeTimeWithoutHeartbeat must be greater than heartbeat frequency (%v)", safe, hb)
	}
	if ttl := sc.TTL.D(); safe >= ttl {
		return sim.FieldErr("safeTime", sim.Say("field.dynamodbSafeTime.lease", "safe", safe.String(), "lease", ttl.String()),
			"%v: safeTimeWithoutHeartbeat must be less than the lock's lease duration (%v)", safe, ttl)
	}
	return nil
}

func (dynamodbMode) Servers(sc *sim.Scenario) []string { return []string{TableName} }

func (dynamodbMode) CanFailover(sc *sim.Scenario, node string) error {
	return sim.FieldErr("", sim.Say("field.dynamodbFailover"), "a DynamoDB table fails over inside AWS: crash or partition dynamodb-1 instead")
}

func (dynamodbMode) Failover(s *sim.Sim, node sim.NodeID) {}

func (dynamodbMode) NewServer(sc *sim.Scenario, i int) sim.Process { return &Table{} }

func (dynamodbMode) NewClient(sc *sim.Scenario, i int) sim.Process { return &lockClient{} }
