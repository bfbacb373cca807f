# No plan that skips more than skip_deny_above records: a reset forward (the
# target after the committed offset) drops those records for the group.
# Warns above skip_warn_above per group, so the reviewer sees what goes.
# Partitions without a committed offset (current null) and delete entries
# (target null) are not counted: what such a consumer would read depends on
# its auto.offset.reset, not on the plan.
package kcg

skip_deny_above := 1000

skip_warn_above := 100

# skipped_by_group[g] is the number of records the plan skips in group g.
skipped_by_group[g.group] := sum([n | some p in g.partitions; n := skipped(p)]) if {
	some g in input.groups
}

# skipped(p) is what partition p skips: 0 unless it moves forward from a
# committed offset.
skipped(p) := p.target - p.current if {
	is_number(p.current)
	is_number(p.target)
	p.target > p.current
} else := 0

skipped_total := sum([n | some n in skipped_by_group])

deny contains msg if {
	skipped_total > skip_deny_above
	msg := sprintf("the plan skips %d records (more than %d): split it, or have it approved as an exception", [skipped_total, skip_deny_above])
}

warn contains msg if {
	some group, n in skipped_by_group
	n > skip_warn_above
	msg := sprintf("group %s: the plan skips %d records", [group, n])
}
