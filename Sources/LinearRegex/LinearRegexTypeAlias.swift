/// Another name for ``LinearTimeRegex``, for code that still spells it so.
public typealias LinearRegex = LinearTimeRegex
