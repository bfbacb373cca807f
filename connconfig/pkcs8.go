package connconfig

// Encrypted private keys. Java clients and OpenSSL write PKCS#8 PBES2,
// which the standard library does not decrypt; kcg decrypts it here so an
// operator's existing key store and ssl.key.password work unchanged.

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"hash"
)

var errKeyPassword = errors.New("cannot decrypt the private key: wrong ssl.key.password, or the key is damaged")

// decryptKeyBlock returns an unencrypted PEM block for blk: PKCS#8
// "ENCRYPTED PRIVATE KEY" (PBES2 with PBKDF2 and AES or 3DES, what Java and
// OpenSSL write) or a legacy OpenSSL "Proc-Type: 4,ENCRYPTED" key.
func decryptKeyBlock(blk *pem.Block, password string) (*pem.Block, error) {
	encrypted := blk.Type == "ENCRYPTED PRIVATE KEY" || blk.Headers["Proc-Type"] == "4,ENCRYPTED"
	if !encrypted {
		return blk, nil
	}
	if password == "" {
		return nil, errors.New("the private key is encrypted: set ssl.key.password in --command-config, or decrypt it with: openssl pkey -in key.pem -out key-plain.pem")
	}
	if blk.Type == "ENCRYPTED PRIVATE KEY" {
		der, err := decryptPKCS8(blk.Bytes, password)
		if err != nil {
			return nil, err
		}
		if _, err := x509.ParsePKCS8PrivateKey(der); err != nil {
			return nil, errKeyPassword
		}
		return &pem.Block{Type: "PRIVATE KEY", Bytes: der}, nil
	}
	// Legacy OpenSSL encryption: insecure key derivation (MD5, one round),
	// but it is what "openssl rsa -aes256" wrote for years, so read it.
	der, err := x509.DecryptPEMBlock(blk, []byte(password)) //nolint:staticcheck // reading legacy keys only
	if err != nil {
		return nil, errKeyPassword
	}
	return &pem.Block{Type: blk.Type, Bytes: der}, nil
}

var (
	oidPBES2      = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}
	oidPBKDF2     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}
	oidHMACSHA1   = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 7}
	oidHMACSHA224 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 8}
	oidHMACSHA256 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 9}
	oidHMACSHA384 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 10}
	oidHMACSHA512 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 11}
	oidAES128CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 2}
	oidAES192CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 22}
	oidAES256CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 42}
	oidDESEDE3CBC = asn1.ObjectIdentifier{1, 2, 840, 113549, 3, 7}
)

var errKeyEncryption = errors.New("the private key's encryption is not supported (kcg reads PKCS#8 PBES2 with PBKDF2 and AES-CBC or 3DES-CBC); re-encrypt it with: openssl pkcs8 -topk8 -v2 aes-256-cbc -in key.pem -out key-enc.pem")

// decryptPKCS8 decrypts a PKCS#8 EncryptedPrivateKeyInfo (RFC 5958, PBES2
// of RFC 8018) and returns the PrivateKeyInfo DER.
func decryptPKCS8(der []byte, password string) ([]byte, error) {
	var info struct {
		Algo pkix.AlgorithmIdentifier
		Data []byte
	}
	if rest, err := asn1.Unmarshal(der, &info); err != nil || len(rest) != 0 {
		return nil, errors.New("malformed encrypted private key")
	}
	if !info.Algo.Algorithm.Equal(oidPBES2) {
		return nil, errKeyEncryption
	}
	var params struct {
		KDF pkix.AlgorithmIdentifier
		Enc pkix.AlgorithmIdentifier
	}
	if _, err := asn1.Unmarshal(info.Algo.Parameters.FullBytes, &params); err != nil {
		return nil, errors.New("malformed encrypted private key parameters")
	}
	if !params.KDF.Algorithm.Equal(oidPBKDF2) {
		return nil, errKeyEncryption
	}
	var kdf struct {
		Salt   []byte
		Iter   int
		KeyLen int                      `asn1:"optional"`
		PRF    pkix.AlgorithmIdentifier `asn1:"optional"`
	}
	if _, err := asn1.Unmarshal(params.KDF.Parameters.FullBytes, &kdf); err != nil {
		return nil, errors.New("malformed PBKDF2 parameters in the private key")
	}
	if kdf.Iter < 1 || kdf.Iter > 10_000_000 {
		return nil, errors.New("implausible PBKDF2 iteration count in the private key")
	}
	prf, ok := pbkdf2PRF(kdf.PRF.Algorithm)
	if !ok {
		return nil, errKeyEncryption
	}
	keyLen, newCipher, ok := pbes2Cipher(params.Enc.Algorithm)
	if !ok {
		return nil, errKeyEncryption
	}
	if kdf.KeyLen != 0 && kdf.KeyLen != keyLen {
		return nil, errors.New("malformed encrypted private key: key length does not match the cipher")
	}
	var iv []byte
	if _, err := asn1.Unmarshal(params.Enc.Parameters.FullBytes, &iv); err != nil {
		return nil, errors.New("malformed cipher parameters in the private key")
	}
	key, err := pbkdf2.Key(prf, password, kdf.Salt, kdf.Iter, keyLen)
	if err != nil {
		return nil, errKeyEncryption
	}
	block, err := newCipher(key)
	if err != nil {
		return nil, errKeyEncryption
	}
	bs := block.BlockSize()
	if len(iv) != bs || len(info.Data) == 0 || len(info.Data)%bs != 0 {
		return nil, errors.New("malformed encrypted private key")
	}
	out := make([]byte, len(info.Data))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(out, info.Data)
	return unpadPKCS7(out, bs)
}

// pbkdf2PRF is the hash of PBKDF2's HMAC named by its OID (none: SHA-1,
// the default of RFC 8018); ok is false for one kcg does not know.
func pbkdf2PRF(a asn1.ObjectIdentifier) (prf func() hash.Hash, ok bool) {
	switch {
	case len(a) == 0 || a.Equal(oidHMACSHA1):
		return sha1.New, true
	case a.Equal(oidHMACSHA224):
		return sha256.New224, true
	case a.Equal(oidHMACSHA256):
		return sha256.New, true
	case a.Equal(oidHMACSHA384):
		return sha512.New384, true
	case a.Equal(oidHMACSHA512):
		return sha512.New, true
	}
	return nil, false
}

// pbes2Cipher is the CBC block cipher named by PBES2's encryption OID and
// its key length; ok is false for one kcg does not know.
func pbes2Cipher(a asn1.ObjectIdentifier) (keyLen int, newCipher func([]byte) (cipher.Block, error), ok bool) {
	switch {
	case a.Equal(oidAES128CBC):
		return 16, aes.NewCipher, true
	case a.Equal(oidAES192CBC):
		return 24, aes.NewCipher, true
	case a.Equal(oidAES256CBC):
		return 32, aes.NewCipher, true
	case a.Equal(oidDESEDE3CBC):
		return 24, des.NewTripleDESCipher, true
	}
	return 0, nil, false
}

// unpadPKCS7 removes the PKCS#7 padding of a decrypted key (blocks of bs
// bytes); bad padding is what a wrong password gives.
func unpadPKCS7(out []byte, bs int) ([]byte, error) {
	pad := int(out[len(out)-1])
	if pad == 0 || pad > bs {
		return nil, errKeyPassword
	}
	for _, b := range out[len(out)-pad:] {
		if int(b) != pad {
			return nil, errKeyPassword
		}
	}
	return out[:len(out)-pad], nil
}
