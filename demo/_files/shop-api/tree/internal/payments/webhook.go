package payments

// VerifySignature checks a webhook signature.
func VerifySignature() {}
