// The ledger chain's verifier, beside the parser worker that starts it (one per read): it hashes
// the batches of ledger lines the parser sends and answers each with the chain's state, and it
// hashes the input whole for its content hash (a file it reads itself). BLAKE3 over every byte,
// twice for a ledger, costs about what parsing them does: here it leaves the parsing thread.
import { serveChain } from './chainService';

serveChain(self);
