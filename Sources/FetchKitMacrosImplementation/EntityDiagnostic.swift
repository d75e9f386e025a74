import SwiftDiagnostics

/// The errors `@Entity` and its markers report, each at the node at fault.
enum EntityDiagnostic: DiagnosticMessage {
    case notAStruct(kind: String)
    case genericType(type: String)
    case missingPrimaryKey(type: String)
    case duplicatePrimaryKey(property: String)
    case unsupportedType(property: String, kind: String)
    case missingTypeAnnotation(property: String)
    case toOneNotOptional(property: String)
    case toManyNotArray(property: String)
    case toManyWithoutDefault(property: String)
    case inverseNotAProperty
    case transientWithoutDefault(property: String)
    case lazyProperty(property: String)
    case letWithDefault(property: String)
    case notALiteral(argument: String, kind: String)

    var message: String {
        switch self {
        case .notAStruct(let kind):
            return "@Entity applies to a struct, not to \(kind)"
        case .genericType(let type):
            return "@Entity type '\(type)' cannot be generic: its table has one set of columns"
        case .missingPrimaryKey(let type):
            return "@Entity type '\(type)' needs a primary key: mark one stored property @PrimaryKey"
        case .duplicatePrimaryKey(let property):
            return "'\(property)' is a second @PrimaryKey; an entity has exactly one"
        case .unsupportedType(let property, let kind):
            return "'\(property)' is \(kind), which no attribute stores; mark it @Transient, "
                + "or store a value, an optional, or an enum with a raw value"
        case .missingTypeAnnotation(let property):
            return "'\(property)' needs a type annotation: @Entity reads attribute types from the declaration"
        case .toOneNotOptional(let property):
            return "to-one @Relationship '\(property)' must have an optional record type, such as 'Category?'"
        case .toManyNotArray(let property):
            return "@Relationship(inverse:) '\(property)' must have an array of records type, such as '[Todo]'"
        case .toManyWithoutDefault(let property):
            return "@Relationship(inverse:) '\(property)' needs the default value '= []'"
        case .inverseNotAProperty:
            return "inverse must be a key path to the destination's to-one relationship, such as '\\Todo.category'"
        case .transientWithoutDefault(let property):
            return "@Transient '\(property)' needs a default value, which fetched records get"
        case .lazyProperty(let property):
            return "'\(property)' is lazy; @Entity records cannot have lazy properties"
        case .letWithDefault(let property):
            return "'let \(property)' has a default value, so a fetched record cannot set it; make it 'var' "
                + "or mark it @Transient"
        case .notALiteral(let argument, let kind):
            return "'\(argument)' must be a \(kind) literal"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .notAStruct: id = "notAStruct"
        case .genericType: id = "genericType"
        case .missingPrimaryKey: id = "missingPrimaryKey"
        case .duplicatePrimaryKey: id = "duplicatePrimaryKey"
        case .unsupportedType: id = "unsupportedType"
        case .missingTypeAnnotation: id = "missingTypeAnnotation"
        case .toOneNotOptional: id = "toOneNotOptional"
        case .toManyNotArray: id = "toManyNotArray"
        case .toManyWithoutDefault: id = "toManyWithoutDefault"
        case .inverseNotAProperty: id = "inverseNotAProperty"
        case .transientWithoutDefault: id = "transientWithoutDefault"
        case .lazyProperty: id = "lazyProperty"
        case .letWithDefault: id = "letWithDefault"
        case .notALiteral: id = "notALiteral"
        }
        return MessageID(domain: "FetchKitMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

/// The fix-its `@Entity`'s diagnostics offer.
struct EntityFixIt: FixItMessage {
    let message: String

    var fixItID: MessageID { MessageID(domain: "FetchKitMacros", id: message) }
}
