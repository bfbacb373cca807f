package connconfig

import "github.com/kcg-dev/kcg/vocab"

// The kinds of connconfig's errors (vocab.Kind; app.ExitCode turns a kind
// into an exit code). ErrNoBootstrap is given its kind where it is
// declared (vocab.WithKind: a usage error).

// ErrorKind: flag misuse is a usage error; a bad --command-config file,
// config file or key material is bad input.
func (e *ConfigError) ErrorKind() vocab.Kind {
	if e.Kind == ConfigErrorUsage {
		return vocab.KindUsage
	}
	return vocab.KindBadInput
}

// ErrorKind: a profile that the config file does not have is the
// operator's command line.
func (e *UnknownProfileError) ErrorKind() vocab.Kind { return vocab.KindUsage }
