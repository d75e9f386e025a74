@_spi(Backend) import FetchKit
import Foundation

/// A column that may be compared as it is (its index serving the comparison), beside the expression that
/// reads it with FetchKit's semantics.
struct NativeOperand {
    /// The column itself, qualified.
    var column: SQLFragment
    var native: NativeColumn

    /// Whether `value` may be compared with the column as it is, in an equality or `IN`.
    func accepts(_ value: Value) -> Bool {
        switch (native.keyComparison, value) {
        case (nil, _), (_, .null): return false
        case (.always?, _): return true
        case (.canonicalUUID?, .text(let text)): return NativeOperand.isCanonicalUUID(text)
        case (.unpaddedText?, .text(let text)): return !text.hasSuffix(" ")
        case (.canonicalUUID?, _), (.unpaddedText?, _): return false
        }
    }

    /// Whether order comparisons may compare the column as it is too (a non-text column compared through
    /// ``NativeColumn/comparisonBinding``: a timestamp without time zone, a date).
    func comparesOrder(as type: AttributeType) -> Bool {
        native.keyComparison == .always && type != .text
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hexadecimal digits.
    static func isCanonicalUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return true
    }
}

extension SQLCompiler {
    /// The native column behind `attribute` of the table `table`, if the backend described one.
    func nativeColumn(_ attribute: Attribute, in table: String) -> NativeColumn? {
        nativeColumns[table]?[attribute.column]
    }

    /// The expression that reads `column` (qualified) of `attribute` with FetchKit's semantics, and the
    /// column itself when a comparison may use it as it is.
    func reading(_ column: String, of attribute: Attribute, in table: String) -> (String, NativeOperand?) {
        guard let native = nativeColumn(attribute, in: table) else { return (column, nil) }
        let operand = native.keyComparison == nil ? nil : NativeOperand(column: SQLFragment(column), native: native)
        switch native.reading {
        case .native:
            return (column, operand)
        case .cast:
            return ("CAST(" + column + " AS " + dialect.columnType(for: attribute.type) + ")", operand)
        case .utcTimestamp:
            return ("(" + column + " AT TIME ZONE 'UTC')", operand)
        case .utcDate:
            return ("(CAST(" + column + " AS TIMESTAMP) AT TIME ZONE 'UTC')", operand)
        }
    }

    /// The expression of a key path's column (see ``reading(_:of:in:)``).
    func reading(_ path: ResolvedKeyPath, in scope: QueryScope) -> (String, NativeOperand?) {
        reading(scope.column(path, dialect: dialect), of: path.attribute, in: path.entity.table)
    }

    /// `value` bound as `binding` says for a column of type `typeName`.
    func bind(_ value: Value, _ binding: NativeColumn.Binding, typeName: String) -> SQLFragment {
        switch binding {
        case .plain: return .binding(value)
        case .cast: return "CAST(" + .binding(value) + " AS " + typeName + ")"
        case .utcTimestamp: return "(" + .binding(value) + " AT TIME ZONE 'UTC')"
        case .utcDate: return "CAST((" + .binding(value) + " AT TIME ZONE 'UTC') AS " + typeName + ")"
        }
    }

    /// `value` as written into `attribute`'s column of `entity`, checked against the column's limit.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` naming the table and column when the value does not fit.
    func written(_ value: Value, for attribute: Attribute, of entity: Entity) throws -> SQLFragment {
        guard let native = nativeColumn(attribute, in: entity.table) else { return .binding(value) }
        if let limit = native.limit, let problem = limit.problem(with: value) {
            throw FetchKitError.invalidValue(
                "\(entity.table).\(attribute.column) (\(entity.name).\(attribute.name)): \(value) \(problem)")
        }
        if value.isNull { return .binding(value) }
        return bind(value, native.writing, typeName: native.typeName)
    }

    /// `pk = key` for the row `key` names in `entity`'s table (no alias), through the column's index
    /// when it has one.
    func keyCondition(_ key: Value, of entity: Entity) -> SQLFragment {
        let attribute = entity.primaryKeyAttribute
        let (expression, operand) = reading(quote(attribute.column), of: attribute, in: entity.table)
        if let operand, operand.accepts(key) {
            return operand.column + " = "
                + bind(key, operand.native.comparisonBinding, typeName: operand.native.typeName)
        }
        return SQLFragment(expression) + " = " + .binding(key)
    }
}

extension NativeColumn.Limit {
    /// Why `value` does not fit, or `nil` when it does.
    func problem(with value: Value) -> String? {
        switch (self, value) {
        case (.integer(let range), .integer(let number)):
            return range.contains(number) ? nil : "is out of range (\(range.lowerBound)...\(range.upperBound))"
        case (.decimal(let precision, let scale), .integer(let number)):
            return Self.fitsDecimal(Double(number), precision: precision, scale: scale)
                ? nil : "does not fit numeric(\(precision), \(scale))"
        case (.decimal(let precision, let scale), .double(let number)):
            return Self.fitsDecimal(number, precision: precision, scale: scale)
                ? nil : "does not fit numeric(\(precision), \(scale))"
        case (.float32, .double(let number)):
            guard number.isFinite else { return nil }
            let single = Float(number)
            if single.isInfinite { return "is out of range for a 32-bit float (real)" }
            if single == 0 && number != 0 { return "is too small for a 32-bit float (real)" }
            return nil
        case (.characters(let length, let padded), .text(let text)):
            let scalars = text.unicodeScalars
            guard scalars.count > length else { return nil }
            if padded && scalars.dropFirst(length).allSatisfy({ $0 == " " }) { return nil }
            return "is longer than \(length) characters"
        default:
            return nil
        }
    }

    /// Whether `number`, rounded to `scale` digits after the point, has at most `precision - scale` digits
    /// before it (infinities do not fit a constrained numeric).
    private static func fitsDecimal(_ number: Double, precision: Int, scale: Int) -> Bool {
        guard number.isFinite else { return false }
        let factor = pow(10, Double(scale))
        let rounded = (abs(number) * factor).rounded(.toNearestOrAwayFromZero) / factor
        return rounded < pow(10, Double(precision - scale))
    }
}
