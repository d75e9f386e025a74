import SwiftSyntax

/// What `@Entity` needs to know about a property's declared type, from its syntax alone.
enum TypeShape {
    /// The wrapped type of `T?` or `Optional<T>`, or `nil` for a type that is not spelled optional.
    static func wrapped(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
            case .type(let wrapped) = arguments.first?.argument
        {
            return wrapped
        }
        return nil
    }

    /// The element type of `[T]` or `Array<T>`, or `nil`.
    static func element(_ type: TypeSyntax) -> TypeSyntax? {
        if let array = type.as(ArrayTypeSyntax.self) { return array.element }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Array",
            let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
            case .type(let element) = arguments.first?.argument
        {
            return element
        }
        return nil
    }

    /// What makes `type` impossible to store ("a tuple", "a function"…), or `nil` when an attribute may
    /// store it (whether it really can, the compiler checks through the generated code's constraints).
    static func unsupportedKind(_ type: TypeSyntax) -> String? {
        if let wrapped = wrapped(type) { return unsupportedKind(wrapped) }
        if let attributed = type.as(AttributedTypeSyntax.self) { return unsupportedKind(attributed.baseType) }
        if let tuple = type.as(TupleTypeSyntax.self) {
            if tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
                return unsupportedKind(only.type)
            }
            return "a tuple"
        }
        if type.is(FunctionTypeSyntax.self) { return "a function" }
        if type.is(ArrayTypeSyntax.self) { return "an array" }
        if type.is(DictionaryTypeSyntax.self) { return "a dictionary" }
        if type.is(MetatypeTypeSyntax.self) { return "a metatype" }
        if type.is(SomeOrAnyTypeSyntax.self) || type.is(CompositionTypeSyntax.self) { return "an existential" }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause != nil {
            switch identifier.name.text {
            case "Array", "ContiguousArray": return "an array"
            case "Dictionary": return "a dictionary"
            case "Set": return "a set"
            default: return nil
            }
        }
        return nil
    }

    /// The type of a literal default value (`false`: `Bool`, `1`: `Int`, `1.5`: `Double`, `"a"`: `String`),
    /// and whether it is a literal an attribute's default may be.
    static func literalType(_ expression: ExprSyntax) -> String? {
        if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        if let string = expression.as(StringLiteralExprSyntax.self),
            string.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) })
        {
            return "String"
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            if prefix.expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
            if prefix.expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        }
        return nil
    }
}
