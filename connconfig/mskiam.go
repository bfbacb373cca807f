package connconfig

// SASL AWS_MSK_IAM, Amazon MSK's IAM access control, as the Java tool's
// MSK setup configures it:
//
//	sasl.mechanism=AWS_MSK_IAM
//	sasl.jaas.config=software.amazon.msk.auth.iam.IAMLoginModule required;
//	sasl.client.callback.handler.class=software.amazon.msk.auth.iam.IAMClientCallbackHandler
//
// The signing is kafka-go's sasl/aws_msk_iam_v2 over aws-sdk-go-v2's
// SigV4 signer; the credentials and region come from aws-sdk-go-v2's
// standard chain (environment, shared config and credentials files, SSO,
// web identity, container and instance roles). Not run against a live MSK
// cluster: docs/connecting.md says so.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	signer "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/kcg-dev/kcg/connconfig/javaprops"
	"github.com/segmentio/kafka-go/sasl"
	mskiam "github.com/segmentio/kafka-go/sasl/aws_msk_iam_v2"
)

const (
	mechMSKIAM    = "AWS_MSK_IAM"
	mskIAMModule  = "software.amazon.msk.auth.iam.IAMLoginModule"
	mskIAMHandler = "software.amazon.msk.auth.iam.IAMClientCallbackHandler"
)

// mskOptions are the IAMLoginModule options kcg honours; awsDebugCreds
// only makes the Java module log the caller identity, so it is accepted
// and has no effect.
var mskOptions = []string{"awsProfileName", "awsRoleArn", "awsRoleSessionName", "awsRoleExternalId", "awsStsRegion", "awsDebugCreds"}

// mskHostRegion finds the region in an MSK broker host name:
// b-1.NAME.ID.c2.kafka.us-east-1.amazonaws.com (also kafka-serverless).
var mskHostRegion = regexp.MustCompile(`\.kafka(?:-serverless)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$`)

// mskMechanism builds AWS_MSK_IAM. It loads the AWS configuration (files
// and environment, no network); credentials are fetched at the first
// connection.
func (r *resolver) mskMechanism(jaas *javaprops.JAASEntry) (sasl.Mechanism, error) {
	if r.o.SASLUsername != "" || (r.o.SASLPassword != "" && !r.o.SASLPasswordFromEnv) {
		flag := "--sasl-username"
		if r.o.SASLUsername == "" {
			flag = "--sasl-password"
		}
		return nil, usageErr(flag, "AWS_MSK_IAM takes no user name or password: it signs with the AWS credentials of the standard chain (AWS_PROFILE, AWS_ACCESS_KEY_ID, ~/.aws, instance role)")
	}
	opts := map[string]string{}
	if jaas != nil {
		opts = jaas.Options
	}
	for k := range opts {
		if !slices.Contains(mskOptions, k) {
			return nil, r.dataErr("sasl.jaas.config", fmt.Sprintf("IAMLoginModule option %s is not supported by kcg (it supports %s; give other settings through the AWS config files or environment)", k, strings.Join(mskOptions, ", ")), nil)
		}
	}
	var loadOpts []func(*awsconfig.LoadOptions) error
	if p := opts["awsProfileName"]; p != "" {
		loadOpts = append(loadOpts, awsconfig.WithSharedConfigProfile(p))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cfg, err := awsconfig.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return nil, r.dataErr("sasl.jaas.config", "AWS_MSK_IAM: cannot load the AWS configuration (check AWS_PROFILE, awsProfileName and ~/.aws/config)", err)
	}
	creds := cfg.Credentials
	if arn := opts["awsRoleArn"]; arn != "" {
		stsCfg := cfg.Copy()
		if reg := opts["awsStsRegion"]; reg != "" {
			stsCfg.Region = reg
		}
		session := opts["awsRoleSessionName"]
		if session == "" {
			session = "kcg-" + time.Now().UTC().Format("20060102T150405")
		}
		creds = aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(sts.NewFromConfig(stsCfg), arn, func(o *stscreds.AssumeRoleOptions) {
			o.RoleSessionName = session
			if ext := opts["awsRoleExternalId"]; ext != "" {
				o.ExternalID = aws.String(ext)
			}
		}))
	} else if opts["awsRoleSessionName"] != "" || opts["awsRoleExternalId"] != "" {
		return nil, r.dataErr("sasl.jaas.config", "IAMLoginModule options awsRoleSessionName and awsRoleExternalId need awsRoleArn", nil)
	}
	if creds == nil {
		return nil, r.dataErr("sasl.jaas.config", "AWS_MSK_IAM: the AWS configuration has no credentials provider", nil)
	}
	return &mskMech{creds: creds, region: cfg.Region, signer: newSigner(), now: time.Now}, nil
}

// mskMech wraps kafka-go's AWS_MSK_IAM mechanism: it picks the region for
// each broker and turns failures into one line naming what to check.
type mskMech struct {
	creds  aws.CredentialsProvider
	region string // from the AWS configuration; the broker host wins
	signer *signer.Signer
	now    func() time.Time

	// signedFor is the region of the last signed request, for the line
	// that reports the broker's refusal of it.
	signedFor atomic.Pointer[string]
}

func (m *mskMech) Name() string { return mechMSKIAM }

func (m *mskMech) Start(ctx context.Context) (sasl.StateMachine, []byte, error) {
	region := m.region
	if md := sasl.MetadataFromContext(ctx); md != nil {
		if sub := mskHostRegion.FindStringSubmatch(strings.ToLower(md.Host)); sub != nil {
			region = sub[1]
		}
	}
	if region == "" {
		return nil, nil, &MechanismError{Mechanism: mechMSKIAM, Msg: "no AWS region: the broker host is not an MSK host name, and AWS_REGION and the profile's region are unset"}
	}
	m.signedFor.Store(&region)
	inner := &mskiam.Mechanism{Signer: m.signer, Credentials: m.creds, Region: region, SignTime: m.now()}
	sess, first, err := inner.Start(ctx)
	if err != nil {
		return nil, nil, &MechanismError{Mechanism: mechMSKIAM, Msg: "cannot sign the authentication request (check the AWS credentials: AWS_PROFILE, AWS_ACCESS_KEY_ID, ~/.aws, the instance or task role)", Err: err}
	}
	return sess, first, nil
}

// rejection names what to check when the broker refused the signed
// request: MSK answers SaslAuthenticate with SASL_AUTHENTICATION_FAILED
// ("Access denied") for unknown or expired credentials, a signature for
// another region, and an identity whose IAM policy lacks
// kafka-cluster:Connect alike, so the line lists all three.
func (m *mskMech) rejection(brokerMsg string) *MechanismError {
	region := m.region
	if r := m.signedFor.Load(); r != nil {
		region = *r
	}
	msg := "the broker refused the signed request"
	if brokerMsg != "" {
		msg += " (" + printable(brokerMsg) + ")"
	}
	msg += fmt.Sprintf(": check the AWS credentials chain (AWS_PROFILE, AWS_ACCESS_KEY_ID, ~/.aws, the instance or task role) and that they are current, the region (signed for %s), and that the identity's IAM policy allows kafka-cluster:Connect on the cluster", region)
	return &MechanismError{Mechanism: mechMSKIAM, Msg: msg}
}

func (m *mskMech) String() string {
	return fmt.Sprintf("{Mechanism: %s, Region: %q, Credentials: %s}", mechMSKIAM, m.region, redactedValue)
}

// Format makes every fmt verb print String.
func (m *mskMech) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(m.String())) }

func newSigner() *signer.Signer { return signer.NewSigner() }
