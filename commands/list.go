package commands

import (
	"fmt"
	"strings"

	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/output"
	"github.com/urfave/cli/v2"
)

// The group states and types the Java tool accepts in --state and --type,
// in the order its messages list them.
var (
	validStates = []string{"PreparingRebalance", "CompletingRebalance", "Stable", "Dead", "Empty", "Assigning", "Reconciling"}
	validTypes  = []string{"classic", "consumer"}
)

// parseNameList parses a --state or --type value the way the Java tool
// does: comma-separated, trimmed, case-insensitive, trailing empty items
// dropped; any unknown or empty item makes the whole list invalid. It
// returns the canonical names.
func parseNameList(input string, valid []string) ([]string, bool) {
	items := strings.Split(input, ",")
	// Java's String.split drops trailing empty strings.
	for len(items) > 0 && items[len(items)-1] == "" {
		items = items[:len(items)-1]
	}
	if len(items) == 0 {
		return nil, false
	}
	var out []string
	for _, it := range items {
		it = strings.TrimSpace(it)
		found := ""
		for _, v := range valid {
			if strings.EqualFold(v, it) {
				found = v
			}
		}
		if found == "" {
			return nil, false
		}
		out = append(out, found)
	}
	return out, true
}

func parseStates(input string) ([]string, error) {
	s, ok := parseNameList(input, validStates)
	if !ok {
		return nil, fmt.Errorf("Invalid state list '%s'. Valid states are: %s", input, strings.Join(validStates, ", "))
	}
	return s, nil
}

func parseTypes(input string) ([]string, error) {
	t, ok := parseNameList(input, validTypes)
	if !ok {
		return nil, fmt.Errorf("Invalid types list '%s'. Valid types are: %s", input, strings.Join(validTypes, ", "))
	}
	return t, nil
}

func listCommand(s Streams) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list consumer groups with their state and type",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "state", Usage: "only groups in these states, comma-separated (" + strings.Join(validStates, ", ") + ")"},
			&cli.StringFlag{Name: "type", Usage: "only groups of these types, comma-separated (classic, consumer)"},
			outputFlag("table", "json", "yaml"),
			sandboxFlag(),
		}, connectionFlags()...),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			var opts kafkaadmin.ListGroupsOptions
			var err error
			if c.IsSet("state") {
				if opts.States, err = parseStates(c.String("state")); err != nil {
					return usageErrorf("%s", err)
				}
			}
			if c.IsSet("type") {
				if opts.Types, err = parseTypes(c.String("type")); err != nil {
					return usageErrorf("%s", err)
				}
			}
			f, err := output.ParseFormat(c.String("output"))
			if err != nil {
				return usageErrorf("%s", err)
			}
			cl, ctx, done, err := connectOrSandbox(c, s)
			if err != nil {
				return err
			}
			defer done()
			gs, err := cl.ListGroups(ctx, opts)
			if err != nil {
				return err
			}
			doc := output.NewGroupList(listings(consumerGroupsOnly(gs)))
			doc.Sort()
			if f == output.FormatTable {
				return output.WriteGroupListTable(s.Out, doc)
			}
			return output.WriteDocument(s.Out, f, doc)
		},
	}
}

func listings(gs []kafkaadmin.GroupListing) []output.GroupListing {
	out := make([]output.GroupListing, 0, len(gs))
	for _, g := range gs {
		l := output.GroupListing{Group: g.Group, ProtocolType: g.ProtocolType}
		if g.State != "" {
			l.State = output.Ptr(g.State)
		}
		if g.Type != "" {
			l.Type = output.Ptr(g.Type)
		}
		out = append(out, l)
	}
	return out
}
