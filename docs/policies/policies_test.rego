# Unit tests of the example policies, for `conftest verify --policy
# docs/policies` (or `opa test docs/policies`); kcg itself never loads a
# *_test.rego file. .ci/policies runs them.
package kcg

plan(strategy, ticket, groups) := {
	"apiVersion": "kcg/v1",
	"kind": "OffsetResetPlan",
	"strategy": {"type": strategy},
	"annotations": {"ticket": ticket, "note": "why"},
	"groups": groups,
}

group(name, current, target) := {"group": name, "partitions": [{"topic": "t", "partition": 0, "current": current, "target": target}]}

test_to_latest_on_critical_denied if {
	count(deny) == 1 with input as plan("to-latest", "OPS-1", [group("billing-eu", 5, 10)])
}

test_to_latest_elsewhere_allowed if {
	count(deny) == 0 with input as plan("to-latest", "OPS-1", [group("reporting", 5, 10)])
}

test_skips_over_limit_denied if {
	deny["the plan skips 1001 records (more than 1000): split it, or have it approved as an exception"] with input as plan("to-offset", "OPS-1", [group("a", 0, 1001)])
}

test_skips_counted_forward_only if {
	count(deny) == 0 with input as plan("to-offset", "OPS-1", [group("a", 5000, 0), group("b", null, 9999)])
}

test_skip_warning_per_group if {
	warn["group a: the plan skips 101 records"] with input as plan("to-offset", "OPS-1", [group("a", 0, 101)])
}

test_ticket_required if {
	deny["the plan has no change ticket: plan again with --ticket ID (e.g. --ticket OPS-123)"] with input as {"strategy": {"type": "to-earliest"}, "groups": []}
}

test_ticket_format if {
	deny[`ticket "see slack" is not a ticket id like OPS-123`] with input as plan("to-earliest", "see slack", [])
}
