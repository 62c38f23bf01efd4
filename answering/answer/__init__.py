"""The answer pipeline as composition: contracts, steps, evidence, model path, composers, publication."""
