package io.rdmascope.replay;

/** Transport service of a conversation, as {@code messages --json} spells it. */
public enum Transport { RC, UC, UD, XRC, IWARP }
