// Package javaprops reads the two Java formats a Kafka client's
// configuration file is written in: the .properties file itself, parsed
// exactly as java.util.Properties.load(InputStream) does, and the
// sasl.jaas.config value inside it, parsed as Kafka's JaasConfig does.
//
// Both parsers are faithful to their Java originals because an operator's
// existing client file must mean to kcg what it means to the Java tool:
// a value read differently would connect differently. Neither parser's
// errors ever quote the input, which may hold a password.
package javaprops
