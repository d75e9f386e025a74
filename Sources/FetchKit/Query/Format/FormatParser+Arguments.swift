import Foundation

extension FormatParser {
    /// The operand a `%@`, `%K`, `%d`, `%f`, `%s` or `%c` (in any of their printf spellings) at `offset` stands
    /// for, consuming the next argument.
    mutating func substitute(
        _ specifier: FormatSpecifier, at offset: Int
    ) throws(FetchKitError) -> FetchPredicate.Operand {
        guard nextArgument < arguments.count else {
            throw FetchKitError.invalidPredicate("\(specifier.spelling) has no argument", offset: offset)
        }
        let argument = arguments[nextArgument].formatArgumentValue
        nextArgument += 1
        switch (specifier, argument) {
        case (.object, .value(let value)):
            return .value(value)
        case (.object, .list(let values)):
            return .list(values)
        case (.key, .value(.text(let path))):
            return try Self.keyOperand(argument: path, offset: offset)
        case (.integer, .value(.integer(let value))):
            return .value(.integer(value))
        case (.double, .value(.integer(let value))):
            return .value(.double(Double(value)))
        case (.double, .value(.double(let value))):
            return .value(.double(value))
        case (.string, .value(.text(let text))):
            return .value(.text(text))
        case (.character, .value(.text(let text))) where text.count == 1:
            return .value(.text(text))
        case (.character, .value(.integer(let code))):
            guard let scalar = UInt32(exactly: code).flatMap(Unicode.Scalar.init), scalar != "\0" else {
                throw FetchKitError.invalidPredicate(
                    "\(specifier.spelling) argument \(code) is not a character's code point", offset: offset)
            }
            return .value(.text(String(Character(scalar))))
        case (.key, _):
            throw Self.wrongArgument(specifier, "a string", got: argument, offset: offset)
        case (.integer, _):
            throw Self.wrongArgument(specifier, "an integer", got: argument, offset: offset)
        case (.double, _):
            throw Self.wrongArgument(specifier, "a number", got: argument, offset: offset)
        case (.string, _):
            throw Self.wrongArgument(specifier, "a string", got: argument, offset: offset)
        case (.character, _):
            throw Self.wrongArgument(specifier, "a one-character string or a code point", got: argument, offset: offset)
        }
    }

    private static func wrongArgument(
        _ specifier: FormatSpecifier, _ expected: String, got argument: FormatArgumentValue, offset: Int
    ) -> FetchKitError {
        let got: String
        switch argument {
        case .value(let value): got = value.attributeType?.description ?? "NULL"
        case .list(let values): got = "a list of \(values.count) value\(values.count == 1 ? "" : "s")"
        }
        return .invalidPredicate("\(specifier.spelling) needs \(expected) argument, got \(got)", offset: offset)
    }

    /// The key path a `%K` argument names: names joined by dots, optionally ending in `.@count` or holding
    /// an aggregate (`todos.@sum.estimate`).
    ///
    /// A key is an attribute's or relationship's name, never a column's: a column named `first name` is declared
    /// as an attribute with a plain name (`Attribute("firstName", .text, column: "first name")`), so that a
    /// `%K` argument can never carry SQL.
    static func keyOperand(argument path: String, offset: Int) throws(FetchKitError) -> FetchPredicate.Operand {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false)
        let components = parts.map(String.init)
        if let at = parts.firstIndex(where: { $0.hasPrefix("@") }), at > 0,
            parts[..<at].allSatisfy(FormatBytes.isName), parts[(at + 1)...].allSatisfy(FormatBytes.isName)
        {
            let name = parts[at].dropFirst().lowercased()
            let collection = FetchPredicate.Key(components: Array(components[..<at]), offset: offset)
            let rest = Array(components[(at + 1)...])
            if name == "count" && rest.isEmpty { return .count(collection) }
            if let function = FetchPredicate.AggregateFunction(rawValue: name), !rest.isEmpty {
                return .aggregate(
                    function, collection: collection, value: FetchPredicate.Key(components: rest, offset: offset))
            }
        }
        guard parts.allSatisfy(FormatBytes.isName) else {
            let shown = FormatBytes.excerpt(ArraySlice(path.utf8), limit: 60)
            throw FetchKitError.invalidPredicate(
                "%K argument '\(shown)' is not a key path" + notAKeyPathReason, offset: offset)
        }
        return .key(FetchPredicate.Key(components: components, offset: offset))
    }

    /// Why a `%K` argument is refused: keys are names, and a column named otherwise is mapped to one.
    static let notAKeyPathReason =
        " (keys are names of letters, digits and '_' joined by dots; declare a "
        + "column named otherwise as an attribute with such a name and column:)"

    // MARK: - CAST

    /// `CAST(constant, 'type')` for the types `NSDate` (seconds since 2001-01-01), `NSNumber`,
    /// `NSString` and, as a FetchKit extension for binary constants, `NSData` (hexadecimal text).
    mutating func parseCast() throws(FetchKitError) -> Value {
        try advance()
        try expect("'(' after CAST") { if case .openParen = $0 { true } else { false } }
        let valueStart = token.start
        let value: Value
        switch token.kind {
        case .integer(let number): value = .integer(number)
        case .double(let number): value = .double(number)
        case .string(let text): value = .text(text)
        default:
            throw FetchKitError.unsupported("CAST of anything but a number or a string constant", offset: token.start)
        }
        try advance()
        try expect("','") { if case .comma = $0 { true } else { false } }
        guard case .string(let type) = token.kind else {
            throw FetchKitError.invalidPredicate("CAST needs a type name such as 'NSDate'", offset: token.start)
        }
        let typeStart = token.start
        try advance()
        try expect("')'") { if case .closeParen = $0 { true } else { false } }
        return try Self.cast(value, to: type, valueStart: valueStart, typeStart: typeStart)
    }

    private static func cast(_ value: Value, to type: String, valueStart: Int, typeStart: Int) throws(FetchKitError)
        -> Value
    {
        switch (type, value) {
        case ("NSDate", .integer(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case ("NSDate", .double(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("NSNumber", .integer), ("NSNumber", .double), ("NSString", .text):
            return value
        case ("NSNumber", .text(let text)):
            if let integer = Int64(text) { return .integer(integer) }
            if let double = Double(text) { return .double(double) }
            throw FetchKitError.invalidPredicate("CAST to NSNumber needs a number", offset: valueStart)
        case ("NSString", .integer(let number)):
            return .text(String(number))
        case ("NSData", .text(let hex)):
            guard let data = FormatBytes.data(hexadecimal: hex) else {
                throw FetchKitError.invalidPredicate("CAST to NSData needs hexadecimal digits", offset: valueStart)
            }
            return .blob(data)
        case ("NSDate", _), ("NSNumber", _), ("NSString", _), ("NSData", _):
            throw FetchKitError.invalidPredicate("cannot CAST this constant to \(type)", offset: valueStart)
        default:
            throw FetchKitError.unsupported(
                "the CAST type '\(FormatBytes.excerpt(ArraySlice(type.utf8)))'",
                detail: "FetchKit casts to NSDate, NSNumber, NSString and NSData", offset: typeStart)
        }
    }
}
