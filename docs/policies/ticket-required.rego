# Every plan names its change ticket (kcg plan --ticket): the ticket is
# recorded in the plan and in the committed offsets' metadata, so the
# change can be traced from the group back to its review. Warns when the
# plan has no note saying why.
package kcg

ticket_pattern := `^[A-Z][A-Z0-9]*-[0-9]+$`

deny contains "the plan has no change ticket: plan again with --ticket ID (e.g. --ticket OPS-123)" if {
	not input.annotations.ticket
}

deny contains msg if {
	t := input.annotations.ticket
	not regex.match(ticket_pattern, t)
	msg := sprintf("ticket %q is not a ticket id like OPS-123", [t])
}

warn contains "the plan has no note: say why with --note" if {
	not input.annotations.note
}
