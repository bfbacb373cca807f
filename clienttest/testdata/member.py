"""A consumer group member for kcg's real-clients tests (clienttest/).

One script, two client libraries: --lib confluent (librdkafka through
confluent-kafka-python) or --lib kafka-python. It subscribes to --topic in
--group, and prints one JSON line on stdout per record it receives:
{"partition": P, "offset": O}. Unless --probe, it commits each record's
next offset synchronously after printing it (so the group's committed
offsets follow what it consumed). With --probe it never commits: the test
reads where a restarted member starts and stops it. SIGTERM closes the
consumer (a dynamic member leaves the group) and exits 0.
"""
import argparse
import json
import signal
import sys


def args():
    p = argparse.ArgumentParser()
    p.add_argument("--lib", required=True, choices=["confluent", "kafka-python"])
    p.add_argument("--bootstrap", required=True)
    p.add_argument("--group", required=True)
    p.add_argument("--topic", required=True)
    p.add_argument("--client-id", required=True)
    p.add_argument("--assignor", default="")
    p.add_argument("--instance-id", default="")
    p.add_argument("--protocol", default="classic", choices=["classic", "consumer"])
    p.add_argument("--session-ms", type=int, default=6000)
    p.add_argument("--probe", action="store_true")
    return p.parse_args()


stopping = False


def on_term(signum, frame):
    global stopping
    stopping = True


def report(partition, offset):
    print(json.dumps({"partition": partition, "offset": offset}), flush=True)


def run_confluent(a):
    from confluent_kafka import Consumer, TopicPartition

    conf = {
        "bootstrap.servers": a.bootstrap,
        "group.id": a.group,
        "client.id": a.client_id,
        "enable.auto.commit": False,
        "auto.offset.reset": "earliest",
        "group.protocol": a.protocol,
    }
    if a.protocol == "classic":
        conf["session.timeout.ms"] = a.session_ms
        conf["heartbeat.interval.ms"] = 1000
        if a.assignor:
            conf["partition.assignment.strategy"] = a.assignor
    if a.instance_id:
        conf["group.instance.id"] = a.instance_id
    c = Consumer(conf)
    c.subscribe([a.topic])
    try:
        while not stopping:
            m = c.poll(0.2)
            if m is None:
                continue
            if m.error():
                print(json.dumps({"error": str(m.error())}), file=sys.stderr, flush=True)
                continue
            report(m.partition(), m.offset())
            if not a.probe:
                c.commit(offsets=[TopicPartition(m.topic(), m.partition(), m.offset() + 1)], asynchronous=False)
    finally:
        c.close()


def run_kafka_python(a):
    import logging

    from kafka import KafkaConsumer, OffsetAndMetadata, TopicPartition

    # Its warnings on stderr, which a test that gives up on this member
    # prints: twice in CI runs (2026-12-06) a kafka-python member never
    # sent its JoinGroup in 90 s and said nothing.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="kafka-python %(levelname)s %(name)s: %(message)s")
    kw = dict(
        bootstrap_servers=a.bootstrap,
        group_id=a.group,
        client_id=a.client_id,
        enable_auto_commit=False,
        auto_offset_reset="earliest",
        session_timeout_ms=a.session_ms,
        heartbeat_interval_ms=1000,
        # kafka-python joins only once its metadata has the subscribed
        # topic, and refreshes it every 5 minutes by default: a first
        # answer without it (a broker still settling the topic while
        # fifteen clients start) would hold the member for longer than
        # the test waits.
        metadata_max_age_ms=2000,
    )
    if a.instance_id:
        kw["group_instance_id"] = a.instance_id
    c = KafkaConsumer(**kw)
    c.subscribe([a.topic])
    try:
        while not stopping:
            batches = c.poll(timeout_ms=200)
            for tp, records in batches.items():
                for r in records:
                    report(tp.partition, r.offset)
                    if not a.probe:
                        c.commit({TopicPartition(tp.topic, tp.partition): OffsetAndMetadata(r.offset + 1, "", -1)})
    finally:
        c.close()


def main():
    a = args()
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    if a.lib == "confluent":
        run_confluent(a)
    else:
        run_kafka_python(a)


if __name__ == "__main__":
    main()
