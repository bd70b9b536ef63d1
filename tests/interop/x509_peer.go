// The Go side of tests/test_x509_interop.py: verify pqkit's ML-DSA chain with
// crypto/x509 (args: root.pem mid.pem leaf.pem), then make an ML-DSA-44 root and
// leaf of its own (written as go-root.pem and go-leaf.pem in the directory of root.pem)
// for pqkit to verify. Prints "verified" and "made" on success.
package main

import (
	"crypto/mldsa"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"time"
)

func load(path string) *x509.Certificate {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	block, _ := pem.Decode(data)
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", path, err))
	}
	return cert
}

func write(path string, der []byte) {
	out := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := os.WriteFile(path, out, 0o644); err != nil {
		panic(err)
	}
}

func main() {
	root, mid, leaf := load(os.Args[1]), load(os.Args[2]), load(os.Args[3])
	roots, inter := x509.NewCertPool(), x509.NewCertPool()
	roots.AddCert(root)
	inter.AddCert(mid)
	opts := x509.VerifyOptions{Roots: roots, Intermediates: inter,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}
	if _, err := leaf.Verify(opts); err != nil {
		panic(fmt.Sprintf("verify: %v", err))
	}
	fmt.Println("verified")

	key, err := mldsa.GenerateKey(mldsa.MLDSA44())
	if err != nil {
		panic(err)
	}
	now := time.Now()
	rootTemplate := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "go root"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	rootDER, err := x509.CreateCertificate(rand.Reader, rootTemplate, rootTemplate, key.Public(), key)
	if err != nil {
		panic(err)
	}
	leafKey, err := mldsa.GenerateKey(mldsa.MLDSA44())
	if err != nil {
		panic(err)
	}
	leafTemplate := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "go leaf"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature,
	}
	parent, _ := x509.ParseCertificate(rootDER)
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTemplate, parent, leafKey.Public(), key)
	if err != nil {
		panic(err)
	}
	dir := filepath.Dir(os.Args[1])
	write(filepath.Join(dir, "go-root.pem"), rootDER)
	write(filepath.Join(dir, "go-leaf.pem"), leafDER)
	fmt.Println("made")
}
