"""What a thin shape must move, for bench/thin.sh and bench/thin-lines.sh: A, B and C read once,
C written, in the precision's element bytes; and the time `gemmbench ceilings`' line of reads
alone gives for those bytes (its JSON: read_fixed_us, read_gbs)."""

ELEM = {"s": 4, "d": 8, "c": 8, "z": 16, "h": 2, "b": 2}


def shape_bytes(m, n, k, prec):
    return (m * k + k * n + 2 * m * n) * ELEM[prec]


def read_us(ceil, nbytes):
    """A read alone of nbytes from memory, by the line of ceilings' reads (0: no line)."""
    if ceil["read_gbs"] <= 0:
        return 0
    return ceil["read_fixed_us"] + nbytes / (ceil["read_gbs"] * 1e3)
