// Package dynamodb is the DynamoDB Lock Client (awslabs/amazon-dynamodb-lock-client):
// one DynamoDB table holding the lock item, written only with conditional
// PutItem, UpdateItem and DeleteItem on its recordVersionNumber, and clients
// running AmazonDynamoDBLockClient's acquireLock, its heartbeat thread, its
// session monitor and releaseLock. The lease is timed by the waiter's own
// clock: a waiter may take the item over only once it has seen the same
// recordVersionNumber for a whole leaseDuration. Its sim.Mode is the value
// Mode, which the list of designs (package designs) installs at start; its
// figures and their sources are in dynamodb.go. ARCHITECTURE.md is the map
// of the whole program.
package dynamodb
