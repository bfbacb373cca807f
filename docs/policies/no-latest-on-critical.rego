# No --to-latest on the critical consumer groups: a reset to the log end
# skips every record not yet read, which for these groups is data lost
# (payments not booked, orders not shipped). Replay or move by time
# instead. Edit critical_groups for your team's names.
package kcg

# A regular expression (RE2) of the groups this policy protects.
critical_groups := `^(critical|billing|payments)([-.].*)?$`

deny contains msg if {
	input.strategy.type == "to-latest"
	some g in input.groups
	regex.match(critical_groups, g.group)
	msg := sprintf("group %s is critical: --to-latest would skip its unread records; plan --to-datetime or --shift-by instead", [g.group])
}
