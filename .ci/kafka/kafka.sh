#!/usr/bin/env bash
# kafka.sh: the real Apache Kafka that kcg's tests run against.
#
# Jars come from Maven Central through pom.xml beside this script; nothing
# else is downloaded. By default one KRaft node (broker+controller) of
# Apache Kafka 4.4.0 on 127.0.0.1; with --brokers N, N brokers and a
# dedicated KRaft controller; with --version V, that broker version. The
# mode follows from the version: 3.5 and later run on KRaft; 2.x (2.1 to
# 2.8) runs on ZooKeeper, one broker beside a ZooKeeper node started from
# the broker's own jars (org.apache.zookeeper.server.ZooKeeperServerMain),
# its jars fetched through pom-zk.xml. Ports are picked at start, data
# (ZooKeeper's too) lives in a temp folder removed by `stop`.
#
#   kafka.sh fetch [--version V]      copy the jars into the cache (idempotent)
#   kafka.sh start [--brokers N] [--version V]
#                                     fetch if needed, format, start, wait;
#                                     prints KCG_TEST_BOOTSTRAP=127.0.0.1:PORT
#                                     and writes $KCG_KAFKA_STATE/env
#   kafka.sh stop                     SIGTERM, wait, SIGKILL; remove temp dirs
#   kafka.sh stop-broker N            SIGKILL broker N (1..N), keep its data
#   kafka.sh start-broker N           start broker N again: same data, ports
#   kafka.sh status [NODE]            is it running? (exit 0 yes, 1 no); with
#                                     several nodes, one line each; on
#                                     ZooKeeper, a line for it too
#   kafka.sh env                      print the env file (KEY=VALUE lines)
#   kafka.sh logs [--node NODE] [N]   last N (default 200) lines of the broker
#                                     log (of each node, or of NODE)
#   kafka.sh classpath                print the Java tools' classpath (4.4.0)
#   kafka.sh java CLASS ARGS...       run a class with the tools' JVM settings
#   kafka.sh consumer-groups ARGS...  kafka-consumer-groups.sh
#   kafka.sh console-producer ARGS... kafka-console-producer.sh
#   kafka.sh console-consumer ARGS... kafka-console-consumer.sh
#   kafka.sh topics ARGS...           kafka-topics.sh
#   kafka.sh connect start            a Kafka Connect distributed worker
#                                     (connect-runtime 4.4.0) beside the
#                                     running cluster, with the tests' sink
#                                     connector; adds KCG_TEST_CONNECT_URL
#                                     to the env file (`stop` stops it too)
#   kafka.sh connect stop|status|env|logs [N]
#
# NODE is a broker number (1..N) or "controller" (only with --brokers 2+).
# The Java tools (classpath, java, consumer-groups, ...) are always Apache
# Kafka 4.4.0's, whatever the broker's version, so the side-by-side
# comparisons are the same on every broker. They log like Kafka's bin/
# scripts with config/tools-log4j2.yaml: WARN and above to stderr, so their
# stdout can be compared with kcg's.
#
# Environment:
#   KCG_KAFKA_VERSION the broker's Apache Kafka version (default: 4.4.0;
#                     tested: 2.8.2 and 2.5.1 on ZooKeeper, 3.7.2, 3.9.1,
#                     4.0.2, 4.4.0 on KRaft); --version overrides it
#   KCG_KAFKA_BROKERS how many brokers (default: 1, one combined node);
#                     --brokers overrides it
#   KCG_KAFKA_CACHE   jar cache (default: .ci/kafka/.cache beside this script)
#   KCG_KAFKA_STATE   pids, env file, pointer to the temp dir
#                     (default: .ci/kafka/.state beside this script)
#   KCG_KAFKA_HEAP    broker heap options (default: -Xms512m -Xmx1g)
#   KCG_KAFKA_CONTROLLER_HEAP  the dedicated controller's heap options
#                     (default: -Xms256m -Xmx512m)
#   KCG_KAFKA_START_TIMEOUT  seconds to wait for the cluster (default: 120)
#                     and for the Connect worker
#   KCG_KAFKA_CONNECT_HEAP   the Connect worker's heap options
#                     (default: -Xms256m -Xmx768m)
#   KCG_KAFKA_GSSAPI_KEYTAB  opt-in (one node only): a listener GSSAPI on
#                     localhost with SASL GSSAPI (Kerberos), the broker
#                     logging in with this keytab as KCG_KAFKA_GSSAPI_PRINCIPAL
#                     (e.g. kafka/localhost@KCG.TEST), its JVM given
#                     -Djava.security.krb5.conf=$KCG_KAFKA_KRB5_CONF; the env
#                     file gets KCG_TEST_GSSAPI_BOOTSTRAP, and the client's
#                     KCG_KAFKA_GSSAPI_CLIENT_KEYTAB/_CLIENT_PRINCIPAL as
#                     KCG_TEST_GSSAPI_KEYTAB/_PRINCIPAL and KCG_TEST_KRB5_CONF.
#                     .ci/auth-kerberos sets them up with a real MIT KDC.
#   JAVA_HOME         used when set; otherwise `java` on PATH
#   KCG_KAFKA_OAUTH_JWKS_URL  opt-in (one broker only): add two OAUTHBEARER
#                     listeners, OIDC (RS256 JWTs validated against this
#                     JWKS URL) and OAUTHU (the unsecured validator); the
#                     env file then has KCG_TEST_OAUTH_BOOTSTRAP and
#                     KCG_TEST_OAUTH_UNSECURED_BOOTSTRAP (.ci/auth-oauth)
#   KCG_KAFKA_OAUTH_ALLOWED_URLS  Kafka 4.x's allowed OAuth URLs (system
#                     property org.apache.kafka.sasl.oauthbearer.allowed.urls
#                     of the broker and the Java tools); default: the JWKS URL
#   KCG_KAFKA_OAUTH_ISSUER    the OIDC listener's expected issuer (default:
#                     the JWKS URL's scheme://host:port)
#   KCG_KAFKA_OAUTH_AUDIENCE  the OIDC listener's expected audience (default:
#                     none, the audience is not checked)
#   KCG_KAFKA_OAUTH_REAUTH_MS the OIDC listener's connections.max.reauth.ms
#                     (optional)
set -euo pipefail

# The Java tools' version, and the broker's unless told otherwise. Change it
# with kafka.version in pom.xml.
TOOLS_VERSION=4.4.0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
pom="$here/pom.xml"
cache="${KCG_KAFKA_CACHE:-$here/.cache}"
state="${KCG_KAFKA_STATE:-$here/.state}"
tools_log4j="$here/tools-log4j2.yaml"
cluster_id="a2NnLXRlc3QtY2x1c3Rlcg" # base64url("kcg-test-cluster")
controller_id=100                   # the dedicated controller's node.id

libs_of() { echo "$cache/libs-$1"; }
classpath_of() { echo "$cache/libs-$1/*"; } # the JVM expands dir/* itself
tools_classpath="$(classpath_of "$TOOLS_VERSION")"

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
# The OAuth URLs Kafka 4.x may contact (KCG_KAFKA_OAUTH_*), on the broker's
# and the tools' JVMs.
oauth_jvm_opts=()
if [[ -n "${KCG_KAFKA_OAUTH_JWKS_URL:-}${KCG_KAFKA_OAUTH_ALLOWED_URLS:-}" ]]; then
	oauth_jvm_opts=("-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=${KCG_KAFKA_OAUTH_ALLOWED_URLS:-$KCG_KAFKA_OAUTH_JWKS_URL}")
	tool_jvm_opts+=("${oauth_jvm_opts[@]}")
fi

# pom_of V: the pom that fetches Apache Kafka V (pom-zk.xml for 2.x,
# which has no kafka-server, kafka-storage or kafka-tools artifacts).
pom_of() {
	if [[ "$1" == 2.* ]]; then echo "$here/pom-zk.xml"; else echo "$pom"; fi
}
# scala_of V: the Scala build of Apache Kafka V's broker jar (kafka_S-V):
# 2.12 before 2.4, which published no 2.13 build; 2.13 after.
scala_of() {
	if [[ "$1" == 2.[0-3].* ]]; then echo 2.12; else echo 2.13; fi
}
pom_digest() { sha256sum "$(pom_of "$1")" | cut -d' ' -f1; }

# check_version V: the broker versions this script knows how to start.
check_version() {
	[[ "$1" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "bad Apache Kafka version '$1' (want X.Y.Z, e.g. 3.9.1)"
	case "$1" in
	2.[1-8].* | 3.[5-9].* | 4.*) ;;
	*) die "Apache Kafka $1 is not supported (2.1-2.8 on ZooKeeper, 3.5-3.9 and 4.x on KRaft are; tested: 2.5.1, 2.8.2, 3.7.2, 3.9.1, 4.0.2, 4.4.0)" ;;
	esac
}

# fetch_version V: the jars of Apache Kafka V in $cache/libs-V.
fetch_version() {
	local version="$1" libs stamp want
	libs="$(libs_of "$version")"
	stamp="$libs/.pom.sha256"
	want="$(pom_digest "$version")"
	local jar
	jar="kafka_$(scala_of "$version")-$version.jar"
	if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] && compgen -G "$libs/$jar" >/dev/null; then
		return 0
	fi
	command -v mvn >/dev/null 2>&1 || die "mvn not found (apt-get install maven)"
	say "fetching Apache Kafka $version jars with Maven into $libs"
	local tmp="$libs.tmp.$$"
	rm -rf "$tmp"
	mkdir -p "$cache"
	local log="$cache/mvn-$version.log"
	if ! mvn -B -ntp -Dstyle.color=never -f "$(pom_of "$version")" dependency:copy-dependencies \
		"-Dkafka.version=$version" "-Dkafka.scala=$(scala_of "$version")" "-Dkcg.kafka.libs=$tmp" >"$log" 2>&1; then
		cat "$log" >&2
		rm -rf "$tmp"
		die "mvn dependency:copy-dependencies failed for Apache Kafka $version (output above, also in $log)"
	fi
	[[ -f "$tmp/$jar" ]] || die "mvn ran but $tmp has no $jar"
	echo "$want" >"$tmp/.pom.sha256"
	rm -rf "$libs"
	mv "$tmp" "$libs"
}

# cmd_fetch: the tools' jars, and the broker version's if it is another.
cmd_fetch() {
	fetch_version "$TOOLS_VERSION"
	if [[ "$kafka_version" != "$TOOLS_VERSION" ]]; then
		fetch_version "$kafka_version"
	fi
}

cmd_classpath() {
	fetch_version "$TOOLS_VERSION"
	echo "$tools_classpath"
}

run_java() {
	local class="$1"
	shift
	fetch_version "$TOOLS_VERSION"
	exec "$(java_bin)" "${tool_jvm_opts[@]}" -cp "$tools_classpath" "$class" "$@"
}

# --- nodes ----------------------------------------------------------------
#
# A node is named by its broker number (1..N) or "controller". One node
# (the default): node 1 is broker and controller in one process, as Kafka's
# quickstart runs it. Two or more brokers: a dedicated controller (node.id
# 100, a one-voter quorum) and brokers 1..N, so killing a broker never
# touches the metadata quorum. State, per node: $state/pid.NODE and
# $state/addr.NODE; its folder is $run/node-NODE (config, data, logs).

pid_alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

# nodes: the nodes of the started cluster, controller first.
nodes() {
	[[ -f "$state/nodes" ]] || return 0
	cat "$state/nodes"
}

broker_nodes() {
	local n
	for n in $(nodes); do
		[[ "$n" == controller ]] || echo "$n"
	done
}

is_node() {
	local n
	for n in $(nodes); do
		[[ "$n" == "$1" ]] && return 0
	done
	return 1
}

node_pid() {
	local pid
	[[ -f "$state/pid.$1" ]] || return 1
	pid="$(cat "$state/pid.$1")"
	pid_alive "$pid" || return 1
	echo "$pid"
}

# running_pid: a pid of the cluster if any node of it (or its ZooKeeper)
# runs.
running_pid() {
	local n
	for n in $(nodes) zookeeper; do
		node_pid "$n" && return 0
	done
	return 1
}

rundir() {
	[[ -f "$state/rundir" ]] || die "not started (no $state/rundir)"
	cat "$state/rundir"
}

node_dir() { echo "$(rundir)/node-$1"; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A free port below Linux's ephemeral range (32768+), so an outgoing
# connection cannot grab it between the check and the broker's bind; never
# one already picked for this cluster ($picked_ports).
picked_ports=" "
free_port() {
	local p i
	for i in $(seq 1 200); do
		p=$((10000 + (RANDOM * 32768 + RANDOM) % 22000))
		if [[ "$picked_ports" != *" $p "* ]] && ! port_in_use "$p"; then
			picked_ports+="$p "
			echo "$p"
			return 0
		fi
	done
	die "no free port found on 127.0.0.1"
}

# --- opt-in: a GSSAPI (Kerberos) listener ----------------------------------
#
# On "localhost", not 127.0.0.1: the Java client takes the host of the
# service principal (kafka/HOST) from the address it dialled, and turns an
# IP literal into a name by reverse DNS; kcg uses the host as dialled. A
# name keeps both on kafka/localhost.
gssapi_on() { [[ -n "${KCG_KAFKA_GSSAPI_KEYTAB:-}" ]]; }
gssapi_port=""

# add_gssapi_listener DIR: add the listener to DIR/server.properties.
add_gssapi_listener() {
	local f="$1/server.properties"
	[[ -n "${KCG_KAFKA_GSSAPI_PRINCIPAL:-}" && -n "${KCG_KAFKA_KRB5_CONF:-}" ]] ||
		die "KCG_KAFKA_GSSAPI_KEYTAB needs KCG_KAFKA_GSSAPI_PRINCIPAL and KCG_KAFKA_KRB5_CONF"
	((brokers == 1)) || die "the GSSAPI listener (KCG_KAFKA_GSSAPI_KEYTAB) is for one node only"
	gssapi_port="$(free_port)"
	sed -i -e "s|^listeners=.*|&,GSSAPI://localhost:$gssapi_port|" \
		-e "s|^advertised.listeners=.*|&,GSSAPI://localhost:$gssapi_port|" \
		-e "s|^listener.security.protocol.map=.*|&,GSSAPI:SASL_PLAINTEXT|" "$f"
	cat >>"$f" <<EOF

# The GSSAPI listener (KCG_KAFKA_GSSAPI_KEYTAB, .ci/auth-kerberos).
listener.name.gssapi.sasl.enabled.mechanisms=GSSAPI
sasl.kerberos.service.name=${KCG_KAFKA_GSSAPI_PRINCIPAL%%/*}
listener.name.gssapi.gssapi.sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true keyTab="$KCG_KAFKA_GSSAPI_KEYTAB" principal="$KCG_KAFKA_GSSAPI_PRINCIPAL";
EOF
}

gssapi_env() {
	echo "KCG_TEST_GSSAPI_BOOTSTRAP=localhost:$gssapi_port"
	echo "KCG_TEST_GSSAPI_KEYTAB=${KCG_KAFKA_GSSAPI_CLIENT_KEYTAB:-}"
	echo "KCG_TEST_GSSAPI_PRINCIPAL=${KCG_KAFKA_GSSAPI_CLIENT_PRINCIPAL:-}"
	echo "KCG_TEST_KRB5_CONF=$KCG_KAFKA_KRB5_CONF"
}

# The SASL listener's test user (a throwaway credential on a loopback test
# broker).
sasl_user=kcg-test
sasl_password=kcg-test-secret

# is_3x: the broker is older than Apache Kafka 4 (3.x or 2.x: KIP-848 not
# GA, no share groups).
is_3x() { [[ "$kafka_version" == [23].* ]]; }
# on_zk: the broker runs on ZooKeeper (Apache Kafka 2.x).
on_zk() { [[ "$kafka_version" == 2.* ]]; }

# add_oauth_listeners DIR: with KCG_KAFKA_OAUTH_JWKS_URL, add the OIDC and
# OAUTHU listeners (OAUTHBEARER over SASL_PLAINTEXT) to DIR/server.properties
# and set oauth_ports="OIDC_PORT OAUTHU_PORT". Opt-in, for .ci/auth-oauth.
add_oauth_listeners() {
	local f="$1/server.properties" oport uport validator
	[[ -n "${KCG_KAFKA_OAUTH_JWKS_URL:-}" ]] || return 0
	oport="$(free_port)"
	uport="$(free_port)"
	oauth_ports="$oport $uport"
	validator=org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler
	is_3x && validator=org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerValidatorCallbackHandler
	sed -i -e "s|^listeners=.*|&,OIDC://127.0.0.1:$oport,OAUTHU://127.0.0.1:$uport|" \
		-e "s|^advertised.listeners=.*|&,OIDC://127.0.0.1:$oport,OAUTHU://127.0.0.1:$uport|" \
		-e "s|^listener.security.protocol.map=.*|&,OIDC:SASL_PLAINTEXT,OAUTHU:SASL_PLAINTEXT|" "$f"
	{
		cat <<EOF

# OAUTHBEARER listeners (KCG_KAFKA_OAUTH_JWKS_URL): OIDC validates signed
# JWTs against the JWKS; OAUTHU takes the Java client's unsecured JWS.
sasl.oauthbearer.jwks.endpoint.url=$KCG_KAFKA_OAUTH_JWKS_URL
listener.name.oidc.sasl.enabled.mechanisms=OAUTHBEARER
listener.name.oidc.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;
listener.name.oidc.oauthbearer.sasl.server.callback.handler.class=$validator
listener.name.oidc.oauthbearer.sasl.oauthbearer.jwks.endpoint.url=$KCG_KAFKA_OAUTH_JWKS_URL
listener.name.oauthu.sasl.enabled.mechanisms=OAUTHBEARER
listener.name.oauthu.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="broker";
EOF
		# Kafka 4.4 refuses to start without an expected issuer; the
		# default is the JWKS URL's origin (internal/testoidc's issuer).
		echo "listener.name.oidc.oauthbearer.sasl.oauthbearer.expected.issuer=${KCG_KAFKA_OAUTH_ISSUER:-$(sed -E 's|^([a-z]+://[^/]+).*|\1|' <<<"$KCG_KAFKA_OAUTH_JWKS_URL")}"
		# 4.4 also wants an audience, or to be told not to check it.
		if [[ -n "${KCG_KAFKA_OAUTH_AUDIENCE:-}" ]]; then
			echo "listener.name.oidc.oauthbearer.sasl.oauthbearer.expected.audience=$KCG_KAFKA_OAUTH_AUDIENCE"
		else
			echo "listener.name.oidc.oauthbearer.sasl.oauthbearer.allow.unverified.audience=true"
		fi
		[[ -z "${KCG_KAFKA_OAUTH_REAUTH_MS:-}" ]] || echo "listener.name.oidc.oauthbearer.connections.max.reauth.ms=$KCG_KAFKA_OAUTH_REAUTH_MS"
	} >>"$f"
}

# write_config DIR ROLE NODE_ID BPORT SPORT: ROLE is combined (the default
# single node), controller or broker. $cport is the controller's port.
write_config() {
	local dir="$1" role="$2" id="$3" bport="$4" sport="$5"
	local rf=1 min_isr=1 offsets_partitions=3
	if ((brokers > 1)); then
		rf=$((brokers < 3 ? brokers : 3))
		min_isr=$((rf > 2 ? 2 : 1))
		offsets_partitions=12
	fi
	# One node: Kafka's default (1), not written, as before.
	local min_isr_line=""
	((brokers == 1)) || min_isr_line=$'\n'"min.insync.replicas=$min_isr"
	local sasl
	sasl="$(
		cat <<EOF

# A SASL listener for the connection tests: user $sasl_user with PLAIN
# (static JAAS users) and SCRAM-SHA-256/512 (credentials added at format).
sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$sasl_user="$sasl_password";
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
EOF
	)"
	{
		case "$role" in
		combined)
			cat <<EOF
# Written by .ci/kafka/kafka.sh: one KRaft node for kcg's tests.
process.roles=broker,controller
node.id=$id
controller.quorum.voters=$id@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$bport,CONTROLLER://127.0.0.1:$cport,SASL_PLAINTEXT://127.0.0.1:$sport
advertised.listeners=PLAINTEXT://127.0.0.1:$bport,SASL_PLAINTEXT://127.0.0.1:$sport
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT
log.dirs=$dir/data
$sasl
EOF
			;;
		controller)
			cat <<EOF
# Written by .ci/kafka/kafka.sh: the KRaft controller of a $brokers-broker
# cluster for kcg's tests (a one-voter quorum).
process.roles=controller
node.id=$id
controller.quorum.voters=$controller_id@127.0.0.1:$cport
listeners=CONTROLLER://127.0.0.1:$cport
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT
log.dirs=$dir/data
EOF
			;;
		zk)
			cat <<EOF
# Written by .ci/kafka/kafka.sh: one broker on ZooKeeper (Apache Kafka
# $kafka_version) for kcg's tests.
broker.id=$id
zookeeper.connect=127.0.0.1:$zkport
zookeeper.connection.timeout.ms=30000
listeners=PLAINTEXT://127.0.0.1:$bport,SASL_PLAINTEXT://127.0.0.1:$sport
advertised.listeners=PLAINTEXT://127.0.0.1:$bport,SASL_PLAINTEXT://127.0.0.1:$sport
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT
log.dirs=$dir/data
$sasl
EOF
			;;
		broker)
			cat <<EOF
# Written by .ci/kafka/kafka.sh: broker $id of a $brokers-broker cluster for
# kcg's tests.
process.roles=broker
node.id=$id
controller.quorum.voters=$controller_id@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$bport,SASL_PLAINTEXT://127.0.0.1:$sport
advertised.listeners=PLAINTEXT://127.0.0.1:$bport,SASL_PLAINTEXT://127.0.0.1:$sport
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT
log.dirs=$dir/data
$sasl
EOF
			;;
		esac
		# Cluster-wide settings, on every node: the controller applies the
		# topic defaults to CreateTopics, the brokers to auto-created topics.
		cat <<EOF

num.network.threads=2
num.io.threads=4
num.partitions=1
default.replication.factor=$rf${min_isr_line}
auto.create.topics.enable=true
delete.topic.enable=true

offsets.topic.replication.factor=$rf
offsets.topic.num.partitions=$offsets_partitions
transaction.state.log.replication.factor=$rf
transaction.state.log.min.isr=$min_isr
EOF
		if ! is_3x; then
			cat <<EOF
share.coordinator.state.topic.replication.factor=$rf
share.coordinator.state.topic.min.isr=$min_isr
EOF
		fi
		if [[ "$kafka_version" == 3.9.* ]]; then
			cat <<EOF

# Groups. Apache Kafka 3.9 serves KIP-848 "consumer" groups only when
# group.coordinator.rebalance.protocols names them (its default is
# "classic"); 3.9 has no share or streams groups. No join delay; short
# session/heartbeat times so members that die leave quickly in tests.
group.coordinator.rebalance.protocols=classic,consumer
EOF
		elif is_3x; then
			cat <<EOF

# Groups. Before 3.9 KIP-848 is early access at most (3.7: unstable APIs),
# and the managed clusters of these lines (AWS MSK 3.x, Confluent Platform
# 7.x) do not offer it: classic groups only, the broker's default. No join
# delay; short session times so members that die leave quickly in tests.
EOF
		else
			cat <<EOF

# Groups. KIP-848 "consumer" groups are on by default since 4.0 (the
# default of group.coordinator.rebalance.protocols is classic,consumer, and
# classic,consumer,streams in 4.4, where setting it only logs a deprecation
# warning), so it is not set here. No join delay; short session/heartbeat
# times so members that die leave quickly in tests.
EOF
		fi
		cat <<EOF
group.initial.rebalance.delay.ms=0
group.min.session.timeout.ms=6000
group.consumer.min.session.timeout.ms=6000
group.consumer.session.timeout.ms=15000
group.consumer.min.heartbeat.interval.ms=500
group.consumer.heartbeat.interval.ms=1000
EOF
	} >"$dir/server.properties"
	if on_zk; then
		write_log4j1 "$dir" server
		return 0
	fi
	# XML, not YAML: log4j2 reads YAML through jackson-dataformat-yaml, which
	# Apache Kafka 3.x does not ship.
	cat >"$dir/log4j2.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!-- Broker log (written by .ci/kafka/kafka.sh) -->
<Configuration>
  <Appenders>
    <File name="FILE" fileName="$dir/logs/server.log">
      <PatternLayout pattern="[%d] %p %m (%c)%n"/>
    </File>
  </Appenders>
  <Loggers>
    <Logger name="kafka.request.logger" level="WARN"/>
    <Logger name="org.apache.kafka.controller" level="INFO"/>
    <Logger name="state.change.logger" level="WARN"/>
    <Root level="INFO">
      <AppenderRef ref="FILE"/>
    </Root>
  </Loggers>
</Configuration>
EOF
}

# write_log4j1 DIR NAME: DIR/log4j.properties, logging INFO and above to
# DIR/logs/NAME.log: Apache Kafka 2.x and its ZooKeeper log through log4j
# 1.2 (the 2.x distribution's config/log4j.properties, shortened).
write_log4j1() {
	cat >"$1/log4j.properties" <<EOF
# Written by .ci/kafka/kafka.sh
log4j.rootLogger=INFO, FILE
log4j.appender.FILE=org.apache.log4j.FileAppender
log4j.appender.FILE.File=$1/logs/$2.log
log4j.appender.FILE.layout=org.apache.log4j.PatternLayout
log4j.appender.FILE.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.org.apache.zookeeper=WARN
log4j.logger.kafka.zookeeper=WARN
EOF
}

# log_opt DIR: the JVM option that points its logging at DIR's config.
log_opt() {
	if on_zk; then
		echo "-Dlog4j.configuration=file:$1/log4j.properties"
	else
		echo "-Dlog4j2.configurationFile=$1/log4j2.xml"
	fi
}

print_log_tail() {
	local dir="$1"
	if [[ -f "$dir/logs/server.log" ]]; then
		echo "---- last lines of $dir/logs/server.log ----" >&2
		tail -n 60 "$dir/logs/server.log" >&2 || true
	fi
	if [[ -s "$dir/kafka.out" ]]; then
		echo "---- $dir/kafka.out ----" >&2
		tail -n 60 "$dir/kafka.out" >&2 || true
	fi
}

# format_node NODE: kafka-storage format, with the broker version's own
# StorageTool (its flags differ between versions; these are common to 3.9
# and 4.x: a static quorum needs no --standalone/--initial-controllers).
format_node() {
	local dir
	dir="$(node_dir "$1")"
	if ! "$(java_bin)" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
		-Djava.awt.headless=true "-Dlog4j2.configurationFile=$dir/log4j2.xml" \
		-cp "$(classpath_of "$kafka_version")" kafka.tools.StorageTool \
		format --cluster-id "$cluster_id" --config "$dir/server.properties" \
		--add-scram "SCRAM-SHA-256=[name=$sasl_user,password=$sasl_password]" \
		--add-scram "SCRAM-SHA-512=[name=$sasl_user,password=$sasl_password]" >"$dir/format.out" 2>&1; then
		cat "$dir/format.out" >&2
		die "kafka-storage format failed for node $1"
	fi
}

# launch_node NODE: start its JVM in the background (config and data as
# written at start) and record its pid.
launch_node() {
	local node="$1" dir heap pid
	dir="$(node_dir "$node")"
	if [[ "$node" == controller ]]; then
		heap="${KCG_KAFKA_CONTROLLER_HEAP:--Xms256m -Xmx512m}"
	else
		heap="${KCG_KAFKA_HEAP:--Xms512m -Xmx1g}"
	fi
	# setsid: own session, so the broker outlives this shell and a Ctrl-C in
	# the caller's terminal does not reach it; `stop` ends it.
	# shellcheck disable=SC2086
	setsid "$(java_bin)" $heap \
		-server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
		-XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true \
		"$(log_opt "$dir")" "-Dkafka.logs.dir=$dir/logs" \
		${oauth_jvm_opts[@]+"${oauth_jvm_opts[@]}"} \
		${KCG_KAFKA_KRB5_CONF:+"-Djava.security.krb5.conf=$KCG_KAFKA_KRB5_CONF"} \
		-cp "$(classpath_of "$kafka_version")" kafka.Kafka "$dir/server.properties" \
		</dev/null >"$dir/kafka.out" 2>&1 &
	pid=$!
	echo "$pid" >"$state/pid.$node"
}

started_count() {
	local c
	# KRaft says "Kafka Server started"; 2.x on ZooKeeper
	# "[KafkaServer id=N] started".
	c="$(grep -Ecs "Kafka Server started|\] started \(kafka.server.KafkaServer\)" "$1/logs/server.log")" || true
	echo "${c:-0}"
}

# wait_started NODE BEFORE DEADLINE: until the node's log says "Kafka Server
# started" more than BEFORE times (a broker says it once unfenced). Returns
# 75 if the node could not bind its ports, 1 if it died or timed out.
wait_started() {
	local node="$1" before="$2" deadline="$3" dir pid
	dir="$(node_dir "$node")"
	pid="$(cat "$state/pid.$node")"
	until (($(started_count "$dir") > before)); do
		if ! pid_alive "$pid"; then
			if grep -qs "Address already in use" "$dir/logs/server.log" "$dir/kafka.out"; then
				return 75
			fi
			print_log_tail "$dir"
			say "node $node exited during start-up (see the log above)"
			return 1
		fi
		if ((SECONDS >= deadline)); then
			print_log_tail "$dir"
			say "node $node did not start within ${KCG_KAFKA_START_TIMEOUT:-120}s (KCG_KAFKA_START_TIMEOUT)"
			return 1
		fi
		sleep 0.2
	done
}

# wait_coordinators_loaded DEADLINE: every partition of __consumer_offsets
# (12 with several brokers) is loaded by some broker's group coordinator.
# The new coordinator (4.x; 3.9 with the consumer protocol on) logs
# "Finished loading of metadata from __consumer_offsets-P", the old one
# "Finished loading offsets and group metadata from __consumer_offsets-P".
wait_coordinators_loaded() {
	local deadline="$1" logs=() n p missing
	for n in $(broker_nodes); do logs+=("$(node_dir "$n")/logs/server.log"); done
	while :; do
		missing=""
		for p in $(seq 0 11); do
			grep -Eqs "Finished loading (of metadata|offsets and group metadata) from __consumer_offsets-$p " "${logs[@]}" ||
				missing+=" $p"
		done
		[[ -z "$missing" ]] && return 0
		if ((SECONDS >= deadline)); then
			say "__consumer_offsets partitions without a loaded coordinator:$missing"
			return 1
		fi
		sleep 0.2
	done
}

# --- ZooKeeper (Apache Kafka 2.x) -------------------------------------------
#
# One ZooKeeper node from the broker version's own jars, in $run/zookeeper
# (config, data, log), its pid in $state/pid.zookeeper; `stop` ends it after
# the broker, and its data goes with the temp folder.
zkport=""

# start_zookeeper RUN: start it (on $zkport, picked before the broker's
# config was written) and wait until it answers on $zkport.
# Returns 75 if its port was taken meanwhile, 1 if it died or timed out.
start_zookeeper() {
	local run="$1" dir pid deadline
	dir="$run/zookeeper"
	mkdir -p "$dir/data" "$dir/logs"
	cat >"$dir/zoo.cfg" <<EOF
# Written by .ci/kafka/kafka.sh: the ZooKeeper of an Apache Kafka $kafka_version broker.
tickTime=2000
dataDir=$dir/data
clientPort=$zkport
clientPortAddress=127.0.0.1
maxClientCnxns=0
admin.enableServer=false
EOF
	write_log4j1 "$dir" zookeeper
	# shellcheck disable=SC2086
	setsid "$(java_bin)" -Xms64m -Xmx256m -XX:+UseSerialGC -Djava.awt.headless=true \
		"-Dlog4j.configuration=file:$dir/log4j.properties" \
		-cp "$(classpath_of "$kafka_version")" org.apache.zookeeper.server.ZooKeeperServerMain "$dir/zoo.cfg" \
		</dev/null >"$dir/zookeeper.out" 2>&1 &
	pid=$!
	echo "$pid" >"$state/pid.zookeeper"
	echo "127.0.0.1:$zkport" >"$state/addr.zookeeper"
	deadline=$((SECONDS + ${KCG_KAFKA_START_TIMEOUT:-120}))
	until port_in_use "$zkport"; do
		if ! pid_alive "$pid"; then
			grep -qs "Address already in use" "$dir/zookeeper.out" "$dir/logs/zookeeper.log" && return 75
			tail -n 40 "$dir/zookeeper.out" "$dir/logs/zookeeper.log" >&2 || true
			say "ZooKeeper exited during start-up (see above)"
			return 1
		fi
		if ((SECONDS >= deadline)); then
			say "ZooKeeper did not answer on 127.0.0.1:$zkport within ${KCG_KAFKA_START_TIMEOUT:-120}s"
			return 1
		fi
		sleep 0.1
	done
}

# add_zk_scram RUN: the SASL listener's SCRAM credentials, written into
# ZooKeeper with the broker version's own ConfigCommand (KRaft brokers get
# them at format).
add_zk_scram() {
	local out="$1/zookeeper/scram.out"
	"$(java_bin)" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -Djava.awt.headless=true \
		"-Dlog4j.configuration=file:$1/zookeeper/log4j.properties" \
		-cp "$(classpath_of "$kafka_version")" kafka.admin.ConfigCommand --zookeeper "127.0.0.1:$zkport" \
		--alter --entity-type users --entity-name "$sasl_user" \
		--add-config "SCRAM-SHA-256=[password=$sasl_password],SCRAM-SHA-512=[password=$sasl_password]" >"$out" 2>&1 || {
		cat "$out" >&2
		return 1
	}
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

# start_once: one try with freshly picked ports. Returns 75 when a node
# could not bind its ports (another process took them after the check).
start_once() {
	local java
	java="$(java_bin)"
	local started=$SECONDS

	mkdir -p "$state"
	local run
	run="$(mktemp -d "${TMPDIR:-/tmp}/kcg-kafka.XXXXXX")"
	echo "$run" >"$state/rundir"
	echo "$kafka_version" >"$state/version"
	# start-broker must find the same jars, whatever KCG_KAFKA_CACHE a
	# test's environment has (the tests only get KCG_TEST_KAFKA_STATE).
	echo "$cache" >"$state/cache"

	local all=() n i
	picked_ports=" "
	cport="$(free_port)"
	zkport=""
	! on_zk || zkport="$(free_port)"
	local -A bport=() sport=()
	if ((brokers == 1)); then
		all=(1)
	else
		all=(controller)
		for ((i = 1; i <= brokers; i++)); do all+=("$i"); done
	fi
	printf '%s\n' "${all[@]}" >"$state/nodes"
	for n in "${all[@]}"; do
		mkdir -p "$run/node-$n/logs" "$run/node-$n/data"
		if [[ "$n" == controller ]]; then
			write_config "$run/node-$n" controller "$controller_id" "" ""
			echo "127.0.0.1:$cport" >"$state/addr.$n"
			continue
		fi
		bport[$n]="$(free_port)"
		sport[$n]="$(free_port)"
		if on_zk; then
			write_config "$run/node-$n" zk "$n" "${bport[$n]}" "${sport[$n]}"
		elif ((brokers == 1)); then
			write_config "$run/node-$n" combined "$n" "${bport[$n]}" "${sport[$n]}"
			add_oauth_listeners "$run/node-$n"
			! gssapi_on || add_gssapi_listener "$run/node-$n"
		else
			write_config "$run/node-$n" broker "$n" "${bport[$n]}" "${sport[$n]}"
		fi
		echo "127.0.0.1:${bport[$n]}" >"$state/addr.$n"
	done
	if on_zk; then
		# ZooKeeper first; then the broker, while the SCRAM credentials
		# are written into ZooKeeper beside it.
		local zrc=0
		start_zookeeper "$run" || zrc=$?
		if ((zrc != 0)); then
			stop_nodes
			cleanup_state
			((zrc == 75)) && return 75
			die "ZooKeeper did not start (see above)"
		fi
		launch_node 1
		add_zk_scram "$run" || {
			cmd_stop >/dev/null 2>&1 || true
			die "adding the SCRAM credentials to ZooKeeper failed (see above)"
		}
	else
		# Formatting is a JVM start per node: in parallel.
		local fpids=() fpid failed=0
		for n in "${all[@]}"; do
			format_node "$n" &
			fpids+=($!)
		done
		for fpid in "${fpids[@]}"; do wait "$fpid" || failed=1; done
		((failed == 0)) || die "kafka-storage format failed (see above)"
		for n in "${all[@]}"; do launch_node "$n"; done
	fi

	# 1. every process says it started (the port alone could belong to
	# another process that took it after free_port looked); a broker says
	# so once the controller has unfenced it.
	local deadline=$((SECONDS + ${KCG_KAFKA_START_TIMEOUT:-120})) rc
	for n in "${all[@]}"; do
		rc=0
		wait_started "$n" 0 "$deadline" || rc=$?
		if ((rc != 0)); then
			stop_nodes
			if ((rc == 75)); then
				cleanup_state
				return 75
			fi
			cleanup_state
			die "the cluster did not start (see above)"
		fi
	done
	local first=1 b
	for b in "${all[@]}"; do
		[[ "$b" == controller ]] && continue
		port_in_use "${bport[$b]}" || {
			print_log_tail "$run/node-$b"
			cmd_stop >/dev/null 2>&1 || true
			die "broker $b says it started but 127.0.0.1:${bport[$b]} does not accept connections"
		}
	done
	# 2. it answers admin requests and its group coordinator is loaded: a
	# describe of an unknown group goes through FindCoordinator, which
	# creates __consumer_offsets, and retries until the coordinator answers.
	# The answer wanted is "group not found" (exit code aside).
	local out
	out="$("$java" "${tool_jvm_opts[@]}" -cp "$tools_classpath" \
		org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \
		--bootstrap-server "127.0.0.1:${bport[$first]}" --describe --group kcg-ci-warmup \
		--timeout 60000 2>&1)" || true
	if ! grep -Eq "does not exist|GroupIdNotFoundException" <<<"$out"; then
		echo "$out" >&2
		print_log_tail "$run/node-$first"
		cmd_stop >/dev/null 2>&1 || true
		die "the broker at 127.0.0.1:${bport[$first]} did not answer a group describe"
	fi
	# 3. with several brokers, every partition of __consumer_offsets has a
	# loaded coordinator somewhere (the describe above waited for one): the
	# coordinators log "Finished loading ... from __consumer_offsets-P".
	if ((brokers > 1)) && ! wait_coordinators_loaded "$deadline"; then
		cmd_stop >/dev/null 2>&1 || true
		die "not every partition of __consumer_offsets got a loaded group coordinator within ${KCG_KAFKA_START_TIMEOUT:-120}s"
	fi

	local servers=""
	for b in "${all[@]}"; do
		[[ "$b" == controller ]] && continue
		servers+="${servers:+,}127.0.0.1:${bport[$b]}"
	done
	{
		echo "KCG_TEST_BOOTSTRAP=127.0.0.1:${bport[$first]}"
		echo "KCG_TEST_SASL_BOOTSTRAP=127.0.0.1:${sport[$first]}"
		echo "KCG_TEST_SASL_USER=$sasl_user"
		echo "KCG_TEST_SASL_PASSWORD=$sasl_password"
		echo "KCG_TEST_KAFKA_CLASSPATH=$tools_classpath"
		echo "KCG_TEST_KAFKA_VERSION=$kafka_version"
		echo "KCG_TEST_KAFKA_TOOLS_LOG4J=$tools_log4j"
		echo "KCG_TEST_KAFKA_SH=$here/kafka.sh"
		echo "KCG_TEST_KAFKA_STATE=$state"
		echo "KCG_TEST_KAFKA_TOOLS_VERSION=$TOOLS_VERSION"
		echo "KCG_TEST_BROKERS=$brokers"
		echo "KCG_TEST_BOOTSTRAP_SERVERS=$servers"
		for b in "${all[@]}"; do
			[[ "$b" == controller ]] && continue
			echo "KCG_TEST_BROKER_$b=127.0.0.1:${bport[$b]}"
		done
		if on_zk; then
			echo "KCG_TEST_ZOOKEEPER=127.0.0.1:$zkport"
		else
			echo "KCG_TEST_CONTROLLER=127.0.0.1:$cport"
		fi
		if [[ -n "${oauth_ports:-}" ]]; then
			echo "KCG_TEST_OAUTH_BOOTSTRAP=127.0.0.1:${oauth_ports% *}"
			echo "KCG_TEST_OAUTH_UNSECURED_BOOTSTRAP=127.0.0.1:${oauth_ports#* }"
			echo "KCG_TEST_OAUTH_ALLOWED_URLS=${KCG_KAFKA_OAUTH_ALLOWED_URLS:-$KCG_KAFKA_OAUTH_JWKS_URL}"
		fi
		! gssapi_on || gssapi_env
	} >"$state/env"
	local what="($brokers brokers and a controller)"
	((brokers > 1)) || what="(pid $(cat "$state/pid.1"))"
	say "Apache Kafka $kafka_version $what ready at $servers in $((SECONDS - started))s; data and logs in $run"
	echo "KCG_TEST_BOOTSTRAP=127.0.0.1:${bport[$first]}"
}

cleanup_state() {
	local run="" n
	[[ -f "$state/rundir" ]] && run="$(cat "$state/rundir")"
	# Only ever remove a folder this script created.
	if [[ -n "$run" && "$run" == */kcg-kafka.* && -d "$run" ]]; then
		rm -rf "$run"
	fi
	for n in $(nodes) zookeeper; do rm -f "$state/pid.$n" "$state/addr.$n"; done
	rm -f "$state/pid" "$state/rundir" "$state/env" "$state/nodes" "$state/version" "$state/cache" \
		"$state/pid.connect" "$state/connect.url"
}

# stop_pids SIG PID...: send SIG, wait up to 30 s for all, then SIGKILL.
stop_pids() {
	local sig="$1" pid i alive
	shift
	(($# > 0)) || return 0
	kill "-$sig" "$@" 2>/dev/null || true
	for i in $(seq 1 150); do # 30 s
		alive=0
		for pid in "$@"; do pid_alive "$pid" && alive=1; done
		((alive)) || return 0
		sleep 0.2
	done
	for pid in "$@"; do
		if pid_alive "$pid"; then
			say "pid $pid did not stop within 30s; killing it"
			kill -KILL "$pid" 2>/dev/null || true
		fi
	done
	for i in $(seq 1 50); do
		alive=0
		for pid in "$@"; do pid_alive "$pid" && alive=1; done
		((alive)) || return 0
		sleep 0.1
	done
}

# stop_nodes: the brokers first (a controlled shutdown asks the controller
# to move leaders away), then the controller.
stop_nodes() {
	local n pid pids=()
	for n in $(broker_nodes); do
		if pid="$(node_pid "$n")"; then pids+=("$pid"); fi
	done
	stop_pids TERM "${pids[@]}"
	if pid="$(node_pid controller)"; then stop_pids TERM "$pid"; fi
	if pid="$(node_pid zookeeper)"; then stop_pids TERM "$pid"; fi
}

cmd_stop() {
	local pids legacy
	# The Connect worker first: it is a client of the cluster.
	if connect_pid >/dev/null; then cmd_connect_stop; fi
	# A broker started by the one-node kafka.sh of before (a single
	# $state/pid file, no $state/nodes).
	if [[ ! -f "$state/nodes" && -f "$state/pid" ]] && legacy="$(cat "$state/pid")" && pid_alive "$legacy"; then
		stop_pids TERM "$legacy"
		say "stopped (pid $legacy)"
	fi
	if running_pid >/dev/null; then
		pids="$(for n in $(nodes) zookeeper; do node_pid "$n" || true; done | tr '\n' ' ')"
		stop_nodes
		say "stopped (pid ${pids% })"
	else
		say "not running"
	fi
	cleanup_state
}

broker_arg() {
	[[ -f "$state/nodes" ]] || die "not started (no $state/nodes)"
	if ! [[ "${1:-}" =~ ^[0-9]+$ ]] || ! is_node "$1"; then
		die "no broker '${1:-}' (brokers: $(broker_nodes | paste -sd' '))"
	fi
}

cmd_stop_broker() {
	local n="${1:-}" pid
	broker_arg "$n"
	if pid="$(node_pid "$n")"; then
		stop_pids KILL "$pid"
		say "broker $n killed (pid $pid, SIGKILL)"
	else
		say "broker $n is not running"
	fi
	rm -f "$state/pid.$n"
}

cmd_start_broker() {
	local n="${1:-}" pid dir before rc=0
	broker_arg "$n"
	kafka_version="$(cat "$state/version")"
	[[ -f "$state/cache" ]] && cache="$(cat "$state/cache")"
	if pid="$(node_pid "$n")"; then
		say "broker $n is already running (pid $pid)"
		cat "$state/addr.$n"
		return 0
	fi
	dir="$(node_dir "$n")"
	before="$(started_count "$dir")"
	local started=$SECONDS
	launch_node "$n"
	wait_started "$n" "$before" $((SECONDS + ${KCG_KAFKA_START_TIMEOUT:-120})) || rc=$?
	if ((rc == 75)); then
		die "broker $n could not bind its port again ($(cat "$state/addr.$n")): another process has it"
	elif ((rc != 0)); then
		die "broker $n did not start again"
	fi
	say "broker $n (pid $(cat "$state/pid.$n")) back at $(cat "$state/addr.$n") in $((SECONDS - started))s"
	cat "$state/addr.$n"
}

cmd_status() {
	local n pid every=1 any=0 one="${1:-}"
	if [[ -n "$one" ]]; then
		is_node "$one" || die "no node '$one' (nodes: $(nodes | paste -sd' '))"
		if pid="$(node_pid "$one")"; then
			echo "node $one: running (pid $pid) at $(cat "$state/addr.$one")"
			return 0
		fi
		echo "node $one: not running"
		return 1
	fi
	if [[ "$(nodes)" == 1 ]]; then
		if pid="$(node_pid 1)"; then
			echo "running (pid $pid)"
			if [[ -f "$state/pid.zookeeper" ]]; then
				pid="$(node_pid zookeeper)" || {
					echo "zookeeper: not running"
					return 1
				}
				echo "zookeeper: running (pid $pid) at $(cat "$state/addr.zookeeper")"
			fi
			cat "$state/env"
			return 0
		fi
		echo "not running"
		return 1
	fi
	for n in $(nodes); do
		if pid="$(node_pid "$n")"; then
			any=1
			echo "node $n: running (pid $pid) at $(cat "$state/addr.$n")"
		else
			every=0
			echo "node $n: not running"
		fi
	done
	if ((any == 0)); then
		echo "not running"
		return 1
	fi
	cat "$state/env"
	((every)) || return 1
}

cmd_logs() {
	local node="" lines=200 n files=()
	while (($#)); do
		case "$1" in
		--node)
			[[ $# -ge 2 ]] || die "usage: kafka.sh logs [--node NODE] [LINES]"
			node="$2"
			shift 2
			;;
		*)
			lines="$1"
			shift
			;;
		esac
	done
	[[ -f "$state/rundir" ]] || die "not started"
	if [[ -n "$node" ]]; then
		is_node "$node" || die "no node '$node' (nodes: $(nodes | paste -sd' '))"
		tail -n "$lines" "$(node_dir "$node")/logs/server.log"
		return
	fi
	for n in $(nodes); do files+=("$(node_dir "$n")/logs/server.log"); done
	tail -n "$lines" "${files[@]}"
}

# --- Kafka Connect: a distributed worker beside the cluster ----------------
#
# `kafka.sh connect start` runs org.apache.kafka.connect.cli.ConnectDistributed
# of connect-runtime $TOOLS_VERSION (connect-pom.xml; jars in
# $cache/libs-connect-VERSION) against the running cluster of this
# KCG_KAFKA_STATE, REST on a free 127.0.0.1 port, and the tests' own sink
# connector (connect-sink/, compiled once per cache into
# $cache/connect-sink-DIGEST/) on its plugin.path. State: $state/pid.connect
# and $state/connect.url; its config and log in $(rundir)/connect. The env
# file gains KCG_TEST_CONNECT_URL and KCG_TEST_CONNECT_VERSION.

connect_pom="$here/connect-pom.xml"
connect_src="$here/connect-sink"
connect_class=dev.kcg.test.connect.FileLinesSinkConnector

connect_libs() { echo "$cache/libs-connect-$TOOLS_VERSION"; }

# fetch_connect: connect-runtime and its dependencies, once per pom.
fetch_connect() {
	local libs stamp want tmp log
	libs="$(connect_libs)"
	stamp="$libs/.pom.sha256"
	want="$(sha256sum "$connect_pom" | cut -d' ' -f1)"
	[[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] && return 0
	command -v mvn >/dev/null 2>&1 || die "mvn not found (apt-get install maven)"
	say "fetching connect-runtime $TOOLS_VERSION jars with Maven into $libs"
	tmp="$libs.tmp.$$"
	log="$cache/mvn-connect-$TOOLS_VERSION.log"
	rm -rf "$tmp"
	mkdir -p "$cache"
	if ! mvn -B -ntp -Dstyle.color=never -f "$connect_pom" dependency:copy-dependencies \
		"-Dconnect.version=$TOOLS_VERSION" "-Dkcg.connect.libs=$tmp" >"$log" 2>&1; then
		cat "$log" >&2
		rm -rf "$tmp"
		die "mvn dependency:copy-dependencies failed for connect-runtime $TOOLS_VERSION (output above, also in $log)"
	fi
	[[ -f "$tmp/connect-runtime-$TOOLS_VERSION.jar" ]] || die "mvn ran but $tmp has no connect-runtime-$TOOLS_VERSION.jar"
	echo "$want" >"$tmp/.pom.sha256"
	rm -rf "$libs"
	mv "$tmp" "$libs"
}

jdk_tool() {
	if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/$1" ]]; then
		echo "$JAVA_HOME/bin/$1"
	elif command -v "$1" >/dev/null 2>&1; then
		command -v "$1"
	else
		die "$1 not found (install a JDK 17+, not only a JRE, or set JAVA_HOME)"
	fi
}

# build_sink: the test sink connector's jar, compiled once per source and
# Connect version; prints the plugin folder that holds it.
build_sink() {
	local digest dir tmp
	digest="$( (
		echo "$TOOLS_VERSION"
		cd "$connect_src" && find . -type f | LC_ALL=C sort | xargs sha256sum
	) | sha256sum | cut -c1-16)"
	dir="$cache/connect-sink-$digest"
	if [[ ! -f "$dir/kcg-test-sink.jar" ]]; then
		tmp="$dir.tmp.$$"
		rm -rf "$tmp"
		mkdir -p "$tmp/classes/META-INF"
		"$(jdk_tool javac)" -nowarn --release 17 -d "$tmp/classes" -cp "$(connect_libs)/*" \
			"$connect_src"/src/dev/kcg/test/connect/*.java >&2 || die "compiling the test sink connector failed"
		cp -r "$connect_src/META-INF/services" "$tmp/classes/META-INF/"
		mkdir -p "$tmp/plugin"
		"$(jdk_tool jar)" --create --file "$tmp/plugin/kcg-test-sink.jar" -C "$tmp/classes" . ||
			die "jar of the test sink connector failed"
		rm -rf "$dir"
		mv "$tmp/plugin" "$dir"
		rm -rf "$tmp"
	fi
	echo "$dir"
}

connect_pid() {
	local pid
	[[ -f "$state/pid.connect" ]] || return 1
	pid="$(cat "$state/pid.connect")"
	pid_alive "$pid" || return 1
	echo "$pid"
}

# env_without_connect: the env file without the Connect lines.
env_without_connect() {
	[[ -f "$state/env" ]] || return 0
	grep -v '^KCG_TEST_CONNECT_' "$state/env" >"$state/env.tmp" || true
	mv "$state/env.tmp" "$state/env"
}

# connect_config DIR PORT PLUGINS: the worker's config. Short group
# timeouts and a 500 ms offset flush so tests see a sink's commits, its
# tasks leave and the worker rebalances within seconds.
connect_config() {
	local dir="$1" port="$2" plugins="$3" rf servers
	rf="$(broker_nodes | wc -l)"
	((rf <= 3)) || rf=3
	servers="$(sed -n 's/^KCG_TEST_BOOTSTRAP_SERVERS=//p' "$state/env")"
	cat >"$dir/worker.properties" <<EOF
# Written by .ci/kafka/kafka.sh connect start: kcg's test Connect worker.
bootstrap.servers=$servers
group.id=kcg-test-connect
config.storage.topic=kcg-test-connect-configs
offset.storage.topic=kcg-test-connect-offsets
status.storage.topic=kcg-test-connect-status
config.storage.replication.factor=$rf
offset.storage.replication.factor=$rf
status.storage.replication.factor=$rf
offset.storage.partitions=1
status.storage.partitions=1
key.converter=org.apache.kafka.connect.storage.StringConverter
value.converter=org.apache.kafka.connect.storage.StringConverter
listeners=http://127.0.0.1:$port
rest.advertised.host.name=127.0.0.1
rest.advertised.port=$port
plugin.path=$plugins
plugin.discovery=service_load
connector.client.config.override.policy=All
offset.flush.interval.ms=500
offset.flush.timeout.ms=5000
session.timeout.ms=6000
heartbeat.interval.ms=1000
rebalance.timeout.ms=20000
scheduled.rebalance.max.delay.ms=0
task.shutdown.graceful.timeout.ms=2000
consumer.session.timeout.ms=6000
consumer.heartbeat.interval.ms=1000
consumer.metadata.max.age.ms=2000
EOF
	# Properties, not YAML: connect-runtime's classpath has no YAML parser.
	cat >"$dir/log4j2.properties" <<EOF
appender.out.type = Console
appender.out.name = STDOUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = STDOUT
logger.reflections.name = org.reflections
logger.reflections.level = ERROR
EOF
}

# connect_ready URL PLUGIN: GET / answers, GET /health (KIP-1017) says the
# worker has joined its group and read its config topic, and the plugin
# is listed.
connect_ready() {
	curl -fsS --max-time 5 "$1/" >/dev/null 2>&1 &&
		curl -fsS --max-time 5 "$1/health" >/dev/null 2>&1 &&
		curl -fsS --max-time 5 "$1/connector-plugins" 2>/dev/null | grep -q "\"$2\""
}

# connect_start_once PLUGINS: one try on a fresh port; 75 if it was taken.
connect_start_once() {
	local plugins="$1" dir port url pid deadline
	dir="$(rundir)/connect"
	mkdir -p "$dir"
	port="$(free_port)"
	url="http://127.0.0.1:$port"
	connect_config "$dir" "$port" "$plugins"
	# setsid: as the brokers, the worker outlives this shell. C1 only and
	# the serial GC: a small, idle worker on a shared 2-core machine; it
	# started in 12-20 s with them where G1 and C2 took 25-32 s (load 28-38).
	# shellcheck disable=SC2086
	setsid "$(java_bin)" ${KCG_KAFKA_CONNECT_HEAP:--Xms256m -Xmx768m} \
		-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -Djava.awt.headless=true \
		"-Dlog4j2.configurationFile=$dir/log4j2.properties" \
		-cp "$(connect_libs)/*" org.apache.kafka.connect.cli.ConnectDistributed "$dir/worker.properties" \
		</dev/null >>"$dir/connect.log" 2>&1 &
	pid=$!
	echo "$pid" >"$state/pid.connect"
	# Interrupted while waiting: stop the worker rather than leave one
	# half-started that the env file does not name.
	trap 'stop_pids TERM "$pid"; rm -f "$state/pid.connect"; say "interrupted; Connect worker stopped"; exit 130' INT TERM
	deadline=$((SECONDS + ${KCG_KAFKA_START_TIMEOUT:-120}))
	until connect_ready "$url" "$connect_class"; do
		if ! pid_alive "$pid"; then
			rm -f "$state/pid.connect"
			grep -qs "Address already in use" "$dir/connect.log" && return 75
			tail -n 60 "$dir/connect.log" >&2 || true
			die "the Connect worker exited during start-up (log above, also in $dir/connect.log)"
		fi
		if ((SECONDS >= deadline)); then
			tail -n 60 "$dir/connect.log" >&2 || true
			stop_pids TERM "$pid"
			rm -f "$state/pid.connect"
			die "the Connect worker did not answer at $url with $connect_class listed within ${KCG_KAFKA_START_TIMEOUT:-120}s"
		fi
		sleep 0.5
	done
	trap - INT TERM
	echo "$url" >"$state/connect.url"
}

cmd_connect_start() {
	local pid plugins started=$SECONDS attempt rc
	if pid="$(connect_pid)"; then
		say "Connect worker already running (pid $pid)"
		grep '^KCG_TEST_CONNECT_' "$state/env"
		return 0
	fi
	running_pid >/dev/null || die "the cluster is not running (kafka.sh start first, with the same KCG_KAFKA_STATE)"
	[[ -f "$state/cache" ]] && cache="$(cat "$state/cache")"
	fetch_connect
	plugins="$(build_sink)"
	for attempt in 1 2 3; do
		rc=0
		connect_start_once "$plugins" || rc=$?
		case $rc in
		0) break ;;
		75) say "the Connect worker's port was taken meanwhile; trying another (attempt $attempt)" ;;
		*) return "$rc" ;;
		esac
	done
	((rc == 0)) || die "could not start the Connect worker: ports kept being taken"
	env_without_connect
	{
		echo "KCG_TEST_CONNECT_URL=$(cat "$state/connect.url")"
		echo "KCG_TEST_CONNECT_VERSION=$TOOLS_VERSION"
	} >>"$state/env"
	say "Kafka Connect $TOOLS_VERSION worker (pid $(cat "$state/pid.connect")) ready at $(cat "$state/connect.url") in $((SECONDS - started))s; log in $(rundir)/connect/connect.log"
	grep '^KCG_TEST_CONNECT_' "$state/env"
}

cmd_connect_stop() {
	local pid
	if pid="$(connect_pid)"; then
		stop_pids TERM "$pid"
		say "Connect worker stopped (pid $pid)"
	else
		say "Connect worker not running"
	fi
	rm -f "$state/pid.connect" "$state/connect.url"
	env_without_connect
}

cmd_connect() {
	local sub="${1:-}"
	shift || true
	case "$sub" in
	start) cmd_connect_start ;;
	stop) cmd_connect_stop ;;
	status)
		local pid
		if pid="$(connect_pid)"; then
			echo "Connect worker running (pid $pid) at $(cat "$state/connect.url")"
		else
			echo "Connect worker not running"
			return 1
		fi
		;;
	env)
		connect_pid >/dev/null || die "the Connect worker is not running (kafka.sh connect start)"
		grep '^KCG_TEST_CONNECT_' "$state/env"
		;;
	logs)
		[[ -f "$state/rundir" && -f "$(rundir)/connect/connect.log" ]] || die "no Connect worker log (kafka.sh connect start)"
		tail -n "${1:-200}" "$(rundir)/connect/connect.log"
		;;
	*) die "usage: kafka.sh connect start|stop|status|env|logs [LINES]" ;;
	esac
}

usage() {
	sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
	exit 2
}

# parse_options ARGS...: --brokers N and --version V (for fetch and start).
parse_options() {
	while (($#)); do
		case "$1" in
		--brokers | --version)
			[[ $# -ge 2 ]] || die "$1 needs a value"
			if [[ "$1" == --brokers ]]; then brokers="$2"; else kafka_version="$2"; fi
			shift 2
			;;
		--brokers=*)
			brokers="${1#*=}"
			shift
			;;
		--version=*)
			kafka_version="${1#*=}"
			shift
			;;
		*) die "unknown option '$1' (try: kafka.sh help)" ;;
		esac
	done
	[[ "$brokers" =~ ^[1-9]$ ]] || die "bad broker count '$brokers' (1 to 9)"
	check_version "$kafka_version"
	if on_zk && ((brokers > 1)); then
		die "Apache Kafka $kafka_version runs on ZooKeeper here with one broker only (--brokers 1)"
	fi
}

kafka_version="${KCG_KAFKA_VERSION:-$TOOLS_VERSION}"
brokers="${KCG_KAFKA_BROKERS:-1}"
cport=""

[[ $# -ge 1 ]] || usage
cmd="$1"
shift
case "$cmd" in
fetch)
	parse_options "$@"
	cmd_fetch
	;;
start)
	parse_options "$@"
	cmd_start
	;;
stop) cmd_stop ;;
stop-broker) cmd_stop_broker "$@" ;;
start-broker) cmd_start_broker "$@" ;;
status) cmd_status "$@" ;;
env)
	[[ -f "$state/env" ]] || die "not started (no $state/env)"
	cat "$state/env"
	;;
logs) cmd_logs "$@" ;;
connect) cmd_connect "$@" ;;
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
