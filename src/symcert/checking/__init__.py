"""The checking apparatus: transitions and oracles (seed 001), the program generator, the
differential campaign, proof-obligation generation, SMT-LIB text and the prover runners."""
