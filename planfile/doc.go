// Package planfile is kcg's plan-file I/O in one place, as Terraform's
// planfile package is: Read reads and strictly decodes a plan file (or
// stdin) within resetplan.MaxPlanBytes, and Write creates a plan or
// rollback file atomically, and exclusively unless told to overwrite.
//
// It is a package of its own, not part of resetplan, because resetplan is
// the pure domain (no file system: it may import vocab only), and a plan
// file's errors are the operator's bad input: they carry that kind
// (vocab.KindBadInput), which app alone turns into exit 65. It is not part
// of commands either, so that everything that reads or writes a plan file
// (plan, show, diff, apply and its rollback plan) goes through the one
// reader and the one writer. It imports resetplan and vocab, and nothing
// imports it but commands and dropin.
package planfile
