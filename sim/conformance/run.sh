#!/usr/bin/env bash
# Conformance run: the simulated Redis, Redlock, ZooKeeper and etcd against
# the real servers (issue 9), etcd's concurrency.Mutex and Election among
# them (issue 32), and client-go's leader election (k8s.io/client-go
# v0.37.2 on its fake clientset: no server; TestKubernetesLeaderElection,
# about 3 s). It
#   1. installs redis-server, redis-sentinel, zookeeper and etcd-server
#      with apt-get where missing (no apt-get: a clear message, exit 0; with CI set, exit 1);
#   2. starts them on 127.0.0.1 only, on fixed uncommon ports, data in a
#      temporary directory, and waits until each answers;
#   3. runs `go test ./...` in this nested module;
#   4. stops everything it (or a test) started, also on failure.
# The servers run as plain child processes, never as system services.
#
# Ports: redis 26379 (single) and 26380 (replica); the Redlock tests start
# five more on 26381-26385 themselves, since they kill and restart them; the
# Sentinel tests (the plain client's failover, Redisson's WAIT) each start a
# master 26386, its replica 26387 and three redis-sentinel processes
# 26388-26390, one group at a time (redis-sentinel is installed with the
# other servers where missing).
# ZooKeeper standalone 22181; ensemble 22182-22184 (peers 22888-22890,
# election 23888-23890). etcd client 22379, peer 22380; the pre-vote test
# starts a three-member etcd cluster itself: clients 22391-22393, peers
# 22394-22396, the proxies between them 22397-22399.
set -euo pipefail
cd "$(dirname "$0")"

GO=${GO:-go}
JAVA=${JAVA:-java}
ZK_JAR=/usr/share/java/zookeeper.jar

say() { echo "conformance: $*"; }

missing=""
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
command -v redis-sentinel >/dev/null 2>&1 || missing="$missing redis-sentinel"
{ [ -r "$ZK_JAR" ] && command -v "$JAVA" >/dev/null 2>&1; } || missing="$missing zookeeper"
command -v etcd >/dev/null 2>&1 || missing="$missing etcd-server"
if [ -n "$missing" ]; then
	if ! command -v apt-get >/dev/null 2>&1; then
		say "the real servers are needed but missing:$missing; there is no apt-get to install them."
		say "install redis-server 7, zookeeper 3.8 and etcd 3.4 and run again."
		if [ -n "${CI:-}" ]; then
			say "CI is set: a missing server is a failure."
			exit 1
		fi
		say "skipped (not CI)."
		exit 0
	fi
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	say "installing$missing"
	# shellcheck disable=SC2086
	if ! { $sudo apt-get update -qq &&
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null; }; then
		say "apt-get could not install$missing."
		if [ -n "${CI:-}" ]; then
			say "CI is set: a missing server is a failure."
			exit 1
		fi
		say "skipped (not CI)."
		exit 0
	fi
fi

REDIS=$(command -v redis-server)
ETCD=$(command -v etcd)

WORK=$(mktemp -d -t lockscope-conformance.XXXXXX)
mkdir -p "$WORK/pids" "$WORK/logs"
PIDS=()

stop_all() {
	local rc=$?
	local f pid
	# Processes a test started record themselves in $WORK/pids.
	for f in "$WORK"/pids/*.pid; do
		[ -e "$f" ] || continue
		pid=$(cat "$f" 2>/dev/null || true)
		[ -n "$pid" ] && kill -CONT "$pid" 2>/dev/null || true
		[ -n "$pid" ] && kill "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		kill -CONT "$pid" 2>/dev/null || true
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	if [ "$rc" -ne 0 ]; then
		for f in "$WORK"/logs/*.log; do
			[ -s "$f" ] || continue
			say "--- last lines of $(basename "$f")"
			grep -v '^[[:space:]]*at ' "$f" | tail -n 8 || true
		done
	fi
	rm -rf "$WORK"
	exit "$rc"
}
trap stop_all EXIT
trap 'exit 130' INT TERM

busy() { ss -Htln "sport = :$1" 2>/dev/null | grep -q .; }
for port in 26379 26380 26381 26382 26383 26384 26385 26386 26387 26388 26389 26390 22181 22182 22183 22184 22888 22889 22890 23888 23889 23890 22379 22380 \
	22391 22392 22393 22394 22395 22396 22397 22398 22399; do
	if busy "$port"; then
		say "port $port on this machine is already in use; stop what holds it and run again."
		exit 1
	fi
done

start() { # name command...
	local name=$1
	shift
	"$@" >"$WORK/logs/$name.log" 2>&1 &
	PIDS+=("$!")
}

redis_start() { # port
	mkdir -p "$WORK/redis-$1"
	start "redis-$1" "$REDIS" --port "$1" --bind 127.0.0.1 --dir "$WORK/redis-$1" \
		--save "" --appendonly no --daemonize no --protected-mode yes --repl-diskless-sync-delay 0
}
redis_start 26379
redis_start 26380

zk_cfg() { # dir port [ensemble]
	mkdir -p "$1"
	{
		echo "tickTime=2000"
		echo "initLimit=10"
		echo "syncLimit=5"
		echo "dataDir=$1"
		echo "clientPort=$2"
		echo "clientPortAddress=127.0.0.1"
		echo "admin.enableServer=false"
		echo "4lw.commands.whitelist=srvr,ruok"
		if [ -n "${3:-}" ]; then
			echo "server.1=127.0.0.1:22888:23888"
			echo "server.2=127.0.0.1:22889:23889"
			echo "server.3=127.0.0.1:22890:23890"
		fi
	} >"$1/zoo.cfg"
}
zk_start() { # name dir
	start "$1" "$JAVA" -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
		-Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dzookeeper.jmx.log4j.disable=true \
		-cp "$ZK_JAR:/usr/share/java/slf4j-simple.jar" \
		org.apache.zookeeper.server.quorum.QuorumPeerMain "$2/zoo.cfg"
}
zk_cfg "$WORK/zk-standalone" 22181
zk_start zk-22181 "$WORK/zk-standalone"
for i in 1 2 3; do
	zk_cfg "$WORK/zk-$i" $((22181 + i)) ensemble
	echo "$i" >"$WORK/zk-$i/myid"
	zk_start "zk-$((22181 + i))" "$WORK/zk-$i"
done

start etcd-22379 "$ETCD" --name lockscope --data-dir "$WORK/etcd" \
	--listen-client-urls http://127.0.0.1:22379 --advertise-client-urls http://127.0.0.1:22379 \
	--listen-peer-urls http://127.0.0.1:22380 --initial-advertise-peer-urls http://127.0.0.1:22380 \
	--initial-cluster lockscope=http://127.0.0.1:22380 --initial-cluster-state new

# Compile the tests while the servers boot.
"$GO" test -count=1 -run '^$' ./... >"$WORK/logs/compile.log" 2>&1 &
COMPILE=$!

# ask PORT REQUEST: one request on a fresh connection, the answer on stdout.
ask() {
	timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$1"' && printf "'"$2"'" >&3 && cat <&3' 2>/dev/null || true
}
ready() { # what port request pattern
	local t0=$SECONDS
	until ask "$2" "$3" | grep -q "$4"; do
		if [ $((SECONDS - t0)) -gt 90 ]; then
			say "$1 on port $2 did not get ready in 90 s"
			exit 1
		fi
		sleep 0.3
	done
}
ready redis 26379 'PING\r\nQUIT\r\n' PONG
ready redis 26380 'PING\r\nQUIT\r\n' PONG
ready etcd 22379 'GET /health HTTP/1.0\r\n\r\n' '"health":"true"'
for port in 22181 22182 22183 22184; do
	ready zookeeper "$port" 'srvr' 'Mode: \(standalone\|leader\|follower\)'
done
say "servers ready after ${SECONDS}s"

wait "$COMPILE" || { cat "$WORK/logs/compile.log"; exit 1; }

export LOCKSCOPE_CONFORMANCE=1
export LOCKSCOPE_REDIS=127.0.0.1:26379
export LOCKSCOPE_REDIS_REPLICA=127.0.0.1:26380
export LOCKSCOPE_REDIS_SERVER="$REDIS"
LOCKSCOPE_REDIS_SENTINEL=$(command -v redis-sentinel || true)
export LOCKSCOPE_REDIS_SENTINEL
export LOCKSCOPE_REDLOCK_PORTS=26381,26382,26383,26384,26385
export LOCKSCOPE_ZK=127.0.0.1:22181
export LOCKSCOPE_ZK_ENSEMBLE=127.0.0.1:22182,127.0.0.1:22183,127.0.0.1:22184
export LOCKSCOPE_ZK_TICK=2s
export LOCKSCOPE_ETCD=127.0.0.1:22379
export LOCKSCOPE_ETCD_SERVER="$ETCD"
export LOCKSCOPE_WORK="$WORK"
"$GO" test -count=1 -timeout 240s ./... "$@"
say "done in ${SECONDS}s"
