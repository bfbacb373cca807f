// Package app is what both of kcg's command lines share: the process's
// streams, the exit codes and the one function that maps an error to a
// code, dialing Kafka with a whole-command deadline, and the version.
//
// commands (kcg's own command line) and dropin (the Java tool's) import it;
// it imports neither, so drop-in mode never reaches into commands.
package app
