package commands

import (
	"flag"
	"time"

	"github.com/kcg-dev/kcg/app"
	"github.com/urfave/cli/v2"
)

// daysFlag is a cli.DurationFlag whose value may start with days
// (app.ParseDuration: 8d, 6d23h), as kcg's tables print durations, and
// whose error says which forms it takes where Go's flag package says only
// "parse error". c.Duration reads it as it reads a cli.DurationFlag.
type daysFlag struct{ *cli.DurationFlag }

// durationFlag is f with days allowed in its value.
func durationFlag(f *cli.DurationFlag) cli.Flag { return daysFlag{f} }

// Apply registers the flag's names on set with one days-aware value.
func (f daysFlag) Apply(set *flag.FlagSet) error {
	v := daysValue(f.Value)
	for _, name := range f.Names() {
		set.Var(&v, name, f.Usage)
	}
	return nil
}

// daysValue is a flag.Value; String is Go's form (192h0m0s), which
// cli.Context.Duration parses back.
type daysValue time.Duration

func (v *daysValue) Set(s string) error {
	d, err := app.ParseDuration(s)
	if err != nil {
		return err
	}
	*v = daysValue(d)
	return nil
}

func (v *daysValue) String() string { return time.Duration(*v).String() }
