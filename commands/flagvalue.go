package commands

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// leafCommand is the command args names (args[1], then its subcommands:
// "profile use") and the index in args of the first word after its name;
// cmd is nil when args[1] is no command.
func leafCommand(a *cli.App, args []string) (cmd *cli.Command, i int) {
	if len(args) < 2 {
		return nil, len(args)
	}
	for _, c := range a.Commands {
		if c.HasName(args[1]) {
			cmd = c
		}
	}
	if cmd == nil {
		return nil, 1
	}
	i = 2
	for len(cmd.Subcommands) > 0 && i < len(args) {
		var sub *cli.Command
		for _, c := range cmd.Subcommands {
			if c.HasName(args[i]) {
				sub = c
			}
		}
		if sub == nil {
			break
		}
		cmd = sub
		i++
	}
	return cmd, i
}

// flagWithoutValue finds a flag typed without its value: Go's flag
// package takes the next word, even another flag, so `plan G --shift-by
// --out f.yaml` shifted by "--out" and then said --out was missing. The
// next word is taken for a flag when it starts with "--" or is one of
// the command's flags ("-o", "-h"); a negative number (--shift-by -5),
// "-" (stdin, stdout) and any other word starting with one dash are
// values. A value that starts with
// "--" can be given as --flag=VALUE.
func flagWithoutValue(a *cli.App, args []string) error {
	cmd, i := leafCommand(a, args)
	if cmd == nil {
		return nil
	}
	words := args[i:]
	for j := 0; j+1 < len(words); j++ {
		w := words[j]
		if w == "--" {
			return nil
		}
		if !strings.HasPrefix(w, "-") || strings.Contains(w, "=") || isNumber(w) {
			continue
		}
		f := lookupFlag(cmd, w)
		if f == nil || !takesValue(f) {
			continue
		}
		next := words[j+1]
		if strings.HasPrefix(next, "--") || next == "-h" || lookupFlag(cmd, next) != nil {
			return fmt.Errorf("flag %s needs a value: %s is a flag (write %s=VALUE for a value starting with -; see 'kcg %s --help')",
				w, next, w, strings.Join(args[1:i], " "))
		}
		j++ // the value
	}
	return nil
}
