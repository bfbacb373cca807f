package commands

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/approval"
	"github.com/kcg-dev/kcg/connconfig"
	"github.com/kcg-dev/kcg/output"
	"github.com/urfave/cli/v2"
)

// approvalOptions are apply's --allowed-signers, --signature and
// --min-approvals.
type approvalOptions struct {
	// allowedSigners is the allowed_signers file; "" asks for no approval.
	allowedSigners string
	// signatures are the signature files (default: PLAN.sig).
	signatures []string
	min        int
}

func approvalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "allowed-signers", Usage: "refuse unless the plan is signed (ssh-keygen -Y sign -n kcg-plan, or kcg approve) by a principal of `FILE`, OpenSSH allowed_signers format (default: the profile's allowedSigners:; docs/approvals.md)"},
		&cli.StringSliceFlag{Name: "signature", Usage: "read approvals from signature `FILE` (repeatable; default: PLAN.sig)"},
		&cli.IntFlag{Name: "min-approvals", Value: 1, Usage: "with --allowed-signers: require `N` distinct approvers (signatures that may be by one person count once; docs/approvals.md)"},
	}
}

func approvalOptionsFrom(c *cli.Context, planPath string, prof *connconfig.Profile) (approvalOptions, error) {
	o := approvalOptions{allowedSigners: c.String("allowed-signers"), signatures: c.StringSlice("signature"), min: c.Int("min-approvals")}
	if o.allowedSigners == "" && prof != nil {
		o.allowedSigners = prof.AllowedSigners
	}
	if o.allowedSigners == "" {
		if c.IsSet("signature") || c.IsSet("min-approvals") {
			return o, app.Usagef("--signature and --min-approvals check approvals against an allowed signers file: give --allowed-signers FILE (or allowedSigners: in the profile)")
		}
		return o, nil
	}
	if o.min < 1 {
		return o, app.Usagef("--min-approvals %d: give 1 or more", o.min)
	}
	if len(o.signatures) == 0 {
		if planPath == "-" {
			return o, app.Usagef("a plan read from stdin has no PLAN.sig beside it: give --signature FILE")
		}
		o.signatures = []string{planPath + ".sig"}
	}
	return o, nil
}

// verifyApprovals checks the signatures of the plan's exact bytes: at
// least o.min distinct approvers (approval.SameApprover: signatures that
// may be by one person count once) of the allowed signers file, or a
// refusal (exit 3) naming why each signature does not count. Signatures
// that do not count beside enough that do are warned about.
func (o approvalOptions) verifyApprovals(s IO, data []byte) ([]output.Approval, []string, error) {
	if o.allowedSigners == "" {
		return nil, nil, nil
	}
	signers, err := approval.ReadSigners(o.allowedSigners)
	if fe, ok := errors.AsType[*approval.FileError](err); ok {
		return nil, nil, app.BadInput(fmt.Errorf("allowed signers %w", fe))
	}
	if err != nil {
		return nil, nil, err
	}
	res := signers.Check(data, o.signatures, time.Now())
	principals := res.Principals()
	if len(principals) < o.min {
		reasons := append([]string{}, res.Rejected...)
		want := fmt.Sprintf("%d approval", o.min)
		if o.min > 1 {
			want = fmt.Sprintf("%d approvals by distinct principals", o.min)
		}
		got := "none"
		if len(principals) > 0 {
			got = fmt.Sprintf("%d (%s)", len(principals), strings.Join(principals, ", "))
		}
		reasons = append(reasons, fmt.Sprintf("the plan needs %s of %s; it has %s", want, o.allowedSigners, got))
		return nil, reasons, nil
	}
	for _, r := range res.Rejected {
		fmt.Fprintf(s.Err, "warning: %s (not counted)\n", r)
	}
	out := make([]output.Approval, 0, len(res.Approvals))
	var names []string
	for _, a := range res.Approvals {
		out = append(out, output.Approval{Principal: a.Principal, Key: a.Key, Signature: a.Signature})
		names = append(names, fmt.Sprintf("%s (%s)", a.Principal, a.Key))
	}
	fmt.Fprintf(s.Err, "approved by %s\n", strings.Join(names, ", "))
	return out, nil, nil
}
