package approval

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"os"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// Sign signs message as ssh-keygen -Y sign -n kcg-plan does: SSHSIG,
// SHA-512, armored as ssh-keygen armors it (base64 lines of 70
// characters), so an Ed25519 signature is byte for byte the one
// ssh-keygen writes.
func Sign(message []byte, signer ssh.Signer) ([]byte, error) {
	sig, err := sshsig.Sign(bytes.NewReader(message), signer, sshsig.HashSHA512, Namespace)
	if err != nil {
		return nil, err
	}
	return armor(sig.Marshal()), nil
}

// armor is OpenSSH's sshsig_armor: the PEM-like block, 70 columns.
func armor(blob []byte) []byte {
	enc := base64.StdEncoding.EncodeToString(blob)
	var b bytes.Buffer
	b.WriteString("-----BEGIN " + pemType + "-----\n")
	for len(enc) > 70 {
		b.WriteString(enc[:70] + "\n")
		enc = enc[70:]
	}
	b.WriteString(enc + "\n")
	b.WriteString("-----END " + pemType + "-----\n")
	return b.Bytes()
}

// ErrEncrypted is a private key protected by a passphrase that no agent
// holds: kcg approve does not ask for passphrases.
var ErrEncrypted = errors.New("is encrypted with a passphrase, and kcg approve does not read passphrases: add the key to ssh-agent (ssh-add), or sign with ssh-keygen -Y sign -n kcg-plan")

// LoadSigner reads the key at path: an unencrypted private key (OpenSSH,
// PEM or PKCS#8), or, when it is a public key or an encrypted private key
// whose public half the file carries (the OpenSSH format does), the
// matching key of the ssh-agent at SSH_AUTH_SOCK, as ssh-keygen -Y sign -f
// does. An encrypted key with no agent holding it is ErrEncrypted.
func LoadSigner(path string) (ssh.Signer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the key: %s", errText(err))
	}
	signer, err := ssh.ParsePrivateKey(data)
	if err == nil {
		return signer, nil
	}
	var pub ssh.PublicKey
	encrypted := false
	if pm, ok := errors.AsType[*ssh.PassphraseMissingError](err); ok {
		encrypted, pub = true, pm.PublicKey
		if pub == nil {
			pub = readPub(path + ".pub")
		}
	} else if k, _, _, _, perr := ssh.ParseAuthorizedKey(data); perr == nil {
		pub = k
	} else {
		return nil, fmt.Errorf("is not an SSH private key: %v", err)
	}
	if pub != nil {
		if s, ok := agentSigner(pub); ok {
			return s, nil
		}
	}
	if encrypted {
		return nil, ErrEncrypted
	}
	return nil, fmt.Errorf("is a public key (%s), and no ssh-agent at SSH_AUTH_SOCK holds its private half", ssh.FingerprintSHA256(pub))
}

func readPub(path string) ssh.PublicKey {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	k, _, _, _, err := ssh.ParseAuthorizedKey(data)
	if err != nil {
		return nil
	}
	return k
}

// agentSigner is the signer of the running ssh-agent for pub.
func agentSigner(pub ssh.PublicKey) (ssh.Signer, bool) {
	sock := os.Getenv("SSH_AUTH_SOCK")
	if sock == "" {
		return nil, false
	}
	conn, err := net.Dial("unix", sock)
	if err != nil {
		return nil, false
	}
	// The connection stays open for the signature; the process ends soon
	// after.
	signers, err := agent.NewClient(conn).Signers()
	if err != nil {
		conn.Close()
		return nil, false
	}
	want := pub.Marshal()
	for _, s := range signers {
		if bytes.Equal(s.PublicKey().Marshal(), want) {
			return s, true
		}
	}
	conn.Close()
	return nil, false
}
