#!/usr/bin/env bash
# kafka.sh: the real Apache Kafka that kcg's tests run against.
#
# Jars come from Maven Central through pom.xml beside this script; nothing
# else is downloaded. One KRaft node (broker+controller) on 127.0.0.1, ports
# picked at start, data in a temp folder removed by `stop`.
#
#   kafka.sh fetch                    copy the jars into the cache (idempotent)
#   kafka.sh start                    fetch if needed, format, start, wait;
#                                     prints KCG_TEST_BOOTSTRAP=127.0.0.1:PORT
#                                     and writes $KCG_KAFKA_STATE/env
#   kafka.sh stop                     SIGTERM, wait, SIGKILL; remove temp dirs
#   kafka.sh status                   is it running? (exit 0 yes, 1 no)
#   kafka.sh env                      print the env file (KEY=VALUE lines)
#   kafka.sh logs [N]                 last N (default 200) lines of the broker log
#   kafka.sh classpath                print the Java classpath
#   kafka.sh java CLASS ARGS...       run a class with the tools' JVM settings
#   kafka.sh consumer-groups ARGS...  kafka-consumer-groups.sh
#   kafka.sh console-producer ARGS... kafka-console-producer.sh
#   kafka.sh console-consumer ARGS... kafka-console-consumer.sh
#   kafka.sh topics ARGS...           kafka-topics.sh
#
# The tools log like Kafka's bin/ scripts with config/tools-log4j2.yaml: WARN
# and above to stderr, so their stdout can be compared with kcg's.
#
# Environment:
#   KCG_KAFKA_CACHE   jar cache (default: .ci/kafka/.cache beside this script)
#   KCG_KAFKA_STATE   pid, env file, pointer to the temp dir
#                     (default: .ci/kafka/.state beside this script)
#   KCG_KAFKA_HEAP    broker heap options (default: -Xms512m -Xmx1g)
#   KCG_KAFKA_START_TIMEOUT  seconds to wait for the broker (default: 120)
#   JAVA_HOME         used when set; otherwise `java` on PATH
set -euo pipefail

KAFKA_VERSION=4.4.0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
pom="$here/pom.xml"
cache="${KCG_KAFKA_CACHE:-$here/.cache}"
state="${KCG_KAFKA_STATE:-$here/.state}"
libs="$cache/libs-$KAFKA_VERSION"
classpath="$libs/*" # the JVM expands dir/* itself
tools_log4j="$here/tools-log4j2.yaml"
cluster_id="a2NnLXRlc3QtY2x1c3Rlcg" # base64url("kcg-test-cluster")

die() {
	echo "kafka.sh: error: $*" >&2
	exit 1
}
say() { echo "kafka.sh: $*" >&2; }

java_bin() {
	if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
		echo "$JAVA_HOME/bin/java"
	elif command -v java >/dev/null 2>&1; then
		command -v java
	else
		die "java not found (install a JDK 17+ or set JAVA_HOME)"
	fi
}

# JVM options for short-lived tools, in the spirit of kafka-run-class.sh
# (which uses -Xmx256M) but tuned for start-up time.
tool_jvm_opts=(
	-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto
	-Djava.awt.headless=true
	"-Dlog4j2.configurationFile=$tools_log4j"
)

pom_digest() { sha256sum "$pom" | cut -d' ' -f1; }

cmd_fetch() {
	local stamp="$libs/.pom.sha256" want
	want="$(pom_digest)"
	if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] && compgen -G "$libs/kafka_2.13-$KAFKA_VERSION.jar" >/dev/null; then
		return 0
	fi
	command -v mvn >/dev/null 2>&1 || die "mvn not found (apt-get install maven)"
	say "fetching Apache Kafka $KAFKA_VERSION jars with Maven into $libs"
	local tmp="$libs.tmp.$$"
	rm -rf "$tmp"
	mkdir -p "$cache"
	local log="$cache/mvn.log"
	if ! mvn -B -ntp -Dstyle.color=never -f "$pom" dependency:copy-dependencies "-Dkcg.kafka.libs=$tmp" >"$log" 2>&1; then
		cat "$log" >&2
		rm -rf "$tmp"
		die "mvn dependency:copy-dependencies failed (output above, also in $log)"
	fi
	[[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]] || die "mvn ran but $tmp has no kafka_2.13-$KAFKA_VERSION.jar"
	echo "$want" >"$tmp/.pom.sha256"
	rm -rf "$libs"
	mv "$tmp" "$libs"
}

cmd_classpath() {
	cmd_fetch
	echo "$classpath"
}

run_java() {
	local class="$1"
	shift
	cmd_fetch
	exec "$(java_bin)" "${tool_jvm_opts[@]}" -cp "$classpath" "$class" "$@"
}

# --- start / stop ---------------------------------------------------------

pid_alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

running_pid() {
	local pid
	[[ -f "$state/pid" ]] || return 1
	pid="$(cat "$state/pid")"
	pid_alive "$pid" || return 1
	echo "$pid"
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A free port below Linux's ephemeral range (32768+), so an outgoing
# connection cannot grab it between the check and the broker's bind.
free_port() {
	local p i
	for i in $(seq 1 200); do
		p=$((10000 + (RANDOM * 32768 + RANDOM) % 22000))
		if ! port_in_use "$p"; then
			echo "$p"
			return 0
		fi
	done
	die "no free port found on 127.0.0.1"
}

# The SASL listener's test user (a throwaway credential on a loopback test
# broker).
sasl_user=kcg-test
sasl_password=kcg-test-secret

write_config() {
	local run="$1" bport="$2" cport="$3" sport="$4"
	cat >"$run/server.properties" <<EOF
# Written by .ci/kafka/kafka.sh: one KRaft node for kcg's tests.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$bport,CONTROLLER://127.0.0.1:$cport,SASL_PLAINTEXT://127.0.0.1:$sport
advertised.listeners=PLAINTEXT://127.0.0.1:$bport,SASL_PLAINTEXT://127.0.0.1:$sport
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT
log.dirs=$run/data

# A SASL listener for the connection tests: user $sasl_user with PLAIN
# (static JAAS users) and SCRAM-SHA-256/512 (credentials added at format).
sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$sasl_user="$sasl_password";
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;

num.network.threads=2
num.io.threads=4
num.partitions=1
default.replication.factor=1
auto.create.topics.enable=true
delete.topic.enable=true

offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1

# Groups. KIP-848 "consumer" groups are on by default in 4.4 (the default
# of group.coordinator.rebalance.protocols is classic,consumer,streams and
# setting it only logs a deprecation warning), so it is not set here. No
# join delay; short session/heartbeat times so members that die leave
# quickly in tests.
group.initial.rebalance.delay.ms=0
group.min.session.timeout.ms=6000
group.consumer.min.session.timeout.ms=6000
group.consumer.session.timeout.ms=15000
group.consumer.min.heartbeat.interval.ms=500
group.consumer.heartbeat.interval.ms=1000
EOF
	cat >"$run/log4j2.yaml" <<EOF
# Broker log (written by .ci/kafka/kafka.sh)
Configuration:
  Appenders:
    File:
      name: FILE
      fileName: "$run/logs/server.log"
      PatternLayout:
        pattern: "[%d] %p %m (%c)%n"
  Loggers:
    Root:
      level: INFO
      AppenderRef:
        - ref: FILE
    Logger:
      - name: kafka.request.logger
        level: WARN
      - name: org.apache.kafka.controller
        level: INFO
      - name: state.change.logger
        level: WARN
EOF
}

print_log_tail() {
	local run="$1"
	if [[ -f "$run/logs/server.log" ]]; then
		echo "---- last lines of $run/logs/server.log ----" >&2
		tail -n 60 "$run/logs/server.log" >&2 || true
	fi
	if [[ -s "$run/kafka.out" ]]; then
		echo "---- $run/kafka.out ----" >&2
		tail -n 60 "$run/kafka.out" >&2 || true
	fi
}

cmd_start() {
	local pid
	if pid="$(running_pid)"; then
		say "already running (pid $pid)"
		cat "$state/env"
		return 0
	fi
	cleanup_state
	cmd_fetch
	local attempt rc
	for attempt in 1 2 3; do
		rc=0
		start_once || rc=$?
		case $rc in
		0) return 0 ;;
		75) say "a picked port was taken meanwhile; trying other ports (attempt $attempt)" ;;
		*) return "$rc" ;;
		esac
	done
	die "could not start the broker: ports kept being taken"
}

# start_once: one try with freshly picked ports. Returns 75 when the broker
# could not bind its ports (another process took them after the check).
start_once() {
	local pid java
	java="$(java_bin)"
	local started=$SECONDS

	mkdir -p "$state"
	local run
	run="$(mktemp -d "${TMPDIR:-/tmp}/kcg-kafka.XXXXXX")"
	echo "$run" >"$state/rundir"
	mkdir -p "$run/logs" "$run/data"

	local bport cport sport
	bport="$(free_port)"
	cport="$(free_port)"
	while [[ "$cport" == "$bport" ]]; do cport="$(free_port)"; done
	sport="$(free_port)"
	while [[ "$sport" == "$bport" || "$sport" == "$cport" ]]; do sport="$(free_port)"; done
	write_config "$run" "$bport" "$cport" "$sport"

	if ! "$java" "${tool_jvm_opts[@]}" -cp "$classpath" kafka.tools.StorageTool \
		format --cluster-id "$cluster_id" --config "$run/server.properties" \
		--add-scram "SCRAM-SHA-256=[name=$sasl_user,password=$sasl_password]" \
		--add-scram "SCRAM-SHA-512=[name=$sasl_user,password=$sasl_password]" >"$run/format.out" 2>&1; then
		cat "$run/format.out" >&2
		die "kafka-storage format failed"
	fi

	# setsid: own session, so the broker outlives this shell and a Ctrl-C in
	# the caller's terminal does not reach it; `stop` ends it.
	# shellcheck disable=SC2086
	setsid "$java" ${KCG_KAFKA_HEAP:--Xms512m -Xmx1g} \
		-server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
		-XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true \
		"-Dlog4j2.configurationFile=$run/log4j2.yaml" "-Dkafka.logs.dir=$run/logs" \
		-cp "$classpath" kafka.Kafka "$run/server.properties" \
		</dev/null >"$run/kafka.out" 2>&1 &
	pid=$!
	echo "$pid" >"$state/pid"

	# 1. the broker process says it started (the port alone could belong to
	# another process that took it after free_port looked).
	local timeout="${KCG_KAFKA_START_TIMEOUT:-120}"
	local deadline=$((SECONDS + timeout))
	until grep -qs "Kafka Server started" "$run/logs/server.log"; do
		if ! pid_alive "$pid"; then
			if grep -qs "Address already in use" "$run/logs/server.log" "$run/kafka.out"; then
				cleanup_state
				return 75
			fi
			print_log_tail "$run"
			cmd_stop >/dev/null 2>&1 || true
			die "the broker exited during start-up (see the log above)"
		fi
		if ((SECONDS >= deadline)); then
			print_log_tail "$run"
			cmd_stop >/dev/null 2>&1 || true
			die "the broker did not start within ${timeout}s (KCG_KAFKA_START_TIMEOUT)"
		fi
		sleep 0.2
	done
	port_in_use "$bport" || {
		print_log_tail "$run"
		cmd_stop >/dev/null 2>&1 || true
		die "the broker says it started but 127.0.0.1:$bport does not accept connections"
	}
	# 2. it answers admin requests and its group coordinator is loaded: a
	# describe of an unknown group goes through FindCoordinator, which
	# creates __consumer_offsets, and retries until the coordinator answers.
	# The answer wanted is "group not found" (exit code aside).
	local out
	out="$("$java" "${tool_jvm_opts[@]}" -cp "$classpath" \
		org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \
		--bootstrap-server "127.0.0.1:$bport" --describe --group kcg-ci-warmup \
		--timeout 60000 2>&1)" || true
	if ! grep -Eq "does not exist|GroupIdNotFoundException" <<<"$out"; then
		echo "$out" >&2
		print_log_tail "$run"
		cmd_stop >/dev/null 2>&1 || true
		die "the broker at 127.0.0.1:$bport did not answer a group describe"
	fi

	{
		echo "KCG_TEST_BOOTSTRAP=127.0.0.1:$bport"
		echo "KCG_TEST_SASL_BOOTSTRAP=127.0.0.1:$sport"
		echo "KCG_TEST_SASL_USER=$sasl_user"
		echo "KCG_TEST_SASL_PASSWORD=$sasl_password"
		echo "KCG_TEST_KAFKA_CLASSPATH=$classpath"
		echo "KCG_TEST_KAFKA_VERSION=$KAFKA_VERSION"
		echo "KCG_TEST_KAFKA_TOOLS_LOG4J=$tools_log4j"
		echo "KCG_TEST_KAFKA_SH=$here/kafka.sh"
	} >"$state/env"
	say "Apache Kafka $KAFKA_VERSION (pid $pid) ready at 127.0.0.1:$bport in $((SECONDS - started))s; data and logs in $run"
	echo "KCG_TEST_BOOTSTRAP=127.0.0.1:$bport"
}

cleanup_state() {
	local run=""
	[[ -f "$state/rundir" ]] && run="$(cat "$state/rundir")"
	# Only ever remove a folder this script created.
	if [[ -n "$run" && "$run" == */kcg-kafka.* && -d "$run" ]]; then
		rm -rf "$run"
	fi
	rm -f "$state/pid" "$state/rundir" "$state/env"
}

cmd_stop() {
	local pid i
	if pid="$(running_pid)"; then
		kill -TERM "$pid" 2>/dev/null || true
		for i in $(seq 1 150); do # 30 s
			pid_alive "$pid" || break
			sleep 0.2
		done
		if pid_alive "$pid"; then
			say "broker pid $pid did not stop within 30s; killing it"
			kill -KILL "$pid" 2>/dev/null || true
			for i in $(seq 1 50); do
				pid_alive "$pid" || break
				sleep 0.1
			done
		fi
		say "stopped (pid $pid)"
	else
		say "not running"
	fi
	cleanup_state
}

cmd_status() {
	local pid
	if pid="$(running_pid)"; then
		echo "running (pid $pid)"
		cat "$state/env"
		return 0
	fi
	echo "not running"
	return 1
}

cmd_logs() {
	local run
	[[ -f "$state/rundir" ]] || die "not started"
	run="$(cat "$state/rundir")"
	tail -n "${1:-200}" "$run/logs/server.log"
}

usage() {
	sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
	exit 2
}

[[ $# -ge 1 ]] || usage
cmd="$1"
shift
case "$cmd" in
fetch) cmd_fetch ;;
start) cmd_start ;;
stop) cmd_stop ;;
status) cmd_status ;;
env)
	[[ -f "$state/env" ]] || die "not started (no $state/env)"
	cat "$state/env"
	;;
logs) cmd_logs "$@" ;;
classpath) cmd_classpath ;;
java)
	[[ $# -ge 1 ]] || die "usage: kafka.sh java CLASS [ARGS...]"
	run_java "$@"
	;;
consumer-groups) run_java org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "$@" ;;
console-producer) run_java org.apache.kafka.tools.ConsoleProducer "$@" ;;
console-consumer) run_java org.apache.kafka.tools.consumer.ConsoleConsumer "$@" ;;
topics) run_java org.apache.kafka.tools.TopicCommand "$@" ;;
-h | --help | help) usage ;;
*) die "unknown command '$cmd' (try: kafka.sh help)" ;;
esac
