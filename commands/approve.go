package commands

import (
	"context"
	"fmt"

	"github.com/kcg-dev/kcg/app"
	"github.com/kcg-dev/kcg/approval"
	"github.com/kcg-dev/kcg/planfile"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/urfave/cli/v2"
	"golang.org/x/crypto/ssh"
)

type approveOptions struct {
	path, key, out string
	overwrite      bool
}

func approveCommand(s IO) *cli.Command {
	return &cli.Command{
		Name:      "approve",
		Usage:     "sign a plan file as its reviewer, with an SSH key (what apply --allowed-signers checks)",
		ArgsUsage: "PLAN --key KEY",
		Description: "Writes PLAN.sig: an SSH signature of the plan file's exact bytes, namespace\n" +
			"kcg-plan, SHA-512, armored — the same signature as\n" +
			"'ssh-keygen -Y sign -f KEY -n kcg-plan PLAN', which 'ssh-keygen -Y verify'\n" +
			"and 'kcg apply --allowed-signers' accept. KEY is an unencrypted private key,\n" +
			"or a public key (or encrypted key) whose private half ssh-agent holds;\n" +
			"kcg does not ask for passphrases (docs/approvals.md).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "key", Usage: "sign with the SSH key `KEY` (required)"},
			&cli.StringFlag{Name: "out", Usage: "write the signature to `FILE` (default: PLAN.sig); an existing FILE is refused"},
			&cli.BoolFlag{Name: "overwrite", Usage: "let the signature replace an existing regular file (never a link, FIFO or device)"},
		},
		Action: action(s, approveOptionsFrom, func(_ context.Context, s IO, o approveOptions) error { return runApprove(s, o) }),
	}
}

func approveOptionsFrom(c *cli.Context) (approveOptions, error) {
	o := approveOptions{key: c.String("key"), out: c.String("out"), overwrite: c.Bool("overwrite")}
	if c.Args().Len() != 1 {
		return o, app.Usagef("approve takes one plan file")
	}
	o.path = c.Args().First()
	if o.key == "" {
		return o, app.Usagef("--key KEY is required: the SSH key to sign with (e.g. ~/.ssh/id_ed25519)")
	}
	if o.out == "" {
		if o.path == "-" {
			return o, app.Usagef("a plan read from stdin: give --out FILE for the signature")
		}
		o.out = o.path + ".sig"
	}
	if o.out == "-" {
		return o, app.Usagef("--out -: the signature must be a file")
	}
	return o, nil
}

func runApprove(s IO, o approveOptions) error {
	plan, data, err := planfile.ReadBytes(o.path, s.In)
	if err != nil {
		return err
	}
	if err := planfile.CheckTarget(o.out, o.overwrite); err != nil {
		return refuseOut(o.out, err)
	}
	signer, err := approval.LoadSigner(o.key)
	if err != nil {
		return app.BadInput(fmt.Errorf("key %s %w", o.key, err))
	}
	sig, err := approval.Sign(data, signer)
	if err != nil {
		return fmt.Errorf("signing with %s: %w", o.key, err)
	}
	if err := planfile.Write(o.out, sig, o.overwrite); err != nil {
		return refuseOut(o.out, err)
	}
	fmt.Fprintf(s.Err, "signed %s (digest %s) with key %s (%s); signature written to %s\n",
		o.path, resetplan.Digest(plan), ssh.FingerprintSHA256(signer.PublicKey()), signer.PublicKey().Type(), o.out)
	return nil
}
