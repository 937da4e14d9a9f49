"""Die goldene Stadt: rule tests quoting the rulebook or the digest, worked examples, random games."""
