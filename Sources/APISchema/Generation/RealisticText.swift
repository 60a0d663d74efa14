import HTTPCore

/// Strings that look like what they name: a first name for `firstName`, an address for
/// `email`, a city for `city`. The kind comes from a schema's `x-faker` key (Faker's names:
/// `name.firstName`, `internet.email`, `address.city`, ...), else from the property's name;
/// the words come from short fixed lists, drawn with the generator's seeded random numbers,
/// so a seed always gives the same text. The generator keeps a text only when the schema
/// accepts it (`pattern`, lengths and `enum` win over the name).
package enum RealisticText: String, Sendable, CaseIterable {
    case firstName, lastName, fullName, username, email, password
    case city, country, countryCode, street, zipCode, phone
    case url, hostname, ipv4, uuid, identifier, date, dateTime, company, word

    /// The `x-faker` keys understood, each with its kind (Faker's current and earlier names).
    package static let fakerKeys: [String: RealisticText] = [
        "name.firstName": .firstName, "person.firstName": .firstName,
        "name.lastName": .lastName, "person.lastName": .lastName,
        "name.fullName": .fullName, "name.findName": .fullName, "person.fullName": .fullName,
        "internet.userName": .username, "internet.username": .username,
        "internet.email": .email, "internet.exampleEmail": .email,
        "internet.password": .password,
        "internet.url": .url, "internet.domainName": .hostname, "internet.ip": .ipv4, "internet.ipv4": .ipv4,
        "address.city": .city, "location.city": .city, "address.country": .country, "location.country": .country,
        "address.countryCode": .countryCode, "location.countryCode": .countryCode,
        "address.streetAddress": .street, "location.streetAddress": .street,
        "address.zipCode": .zipCode, "location.zipCode": .zipCode,
        "phone.phoneNumber": .phone, "phone.number": .phone,
        "datatype.uuid": .uuid, "string.uuid": .uuid, "random.uuid": .uuid,
        "date.past": .dateTime, "date.recent": .dateTime, "date.future": .dateTime, "date.soon": .dateTime,
        "company.companyName": .company, "company.name": .company,
        "lorem.word": .word, "random.word": .word, "word.noun": .word,
    ]

    /// The kind an `x-faker` key names, or nil when it is not one petkit makes.
    package init?(faker key: String) {
        guard let kind = Self.fakerKeys[key] else { return nil }
        self = kind
    }

    /// The kind a property's name suggests (`email`, `first_name`, `homeCity`, `userId`,
    /// `createdAt`), or nil when it suggests none. Compared without case, `_` and `-`; a
    /// plural (`emails`) reads as its singular, for an array's items.
    package init?(propertyName: String) {
        // `userId`, `user_id`, `createdAt`, `created_at`: told by their case or separator, so
        // that `paid` and `format` are not taken for an id and a time.
        if propertyName.hasSuffix("Id") || propertyName.hasSuffix("ID") || propertyName.lowercased().hasSuffix("_id")
            || propertyName.lowercased().hasSuffix("-id")
        {
            self = .identifier
            return
        }
        if propertyName.count > 2, propertyName.hasSuffix("At") || propertyName.lowercased().hasSuffix("_at") {
            self = .dateTime
            return
        }
        let lowered = String(propertyName.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
        if let kind = Self.suffixKind(lowered) {
            self = kind
        } else if lowered.hasSuffix("s"), let kind = Self.suffixKind(String(lowered.dropLast())) {
            self = kind
        } else {
            return nil
        }
    }

    private static let exactNames: [String: RealisticText] = [
        "firstname": .firstName, "givenname": .firstName, "forename": .firstName,
        "lastname": .lastName, "surname": .lastName, "familyname": .lastName,
        "name": .fullName, "fullname": .fullName, "displayname": .fullName, "owner": .fullName,
        "username": .username, "login": .username, "nickname": .username, "handle": .username,
        "password": .password, "passphrase": .password,
        "city": .city, "town": .city, "country": .country, "countrycode": .countryCode,
        "street": .street, "address": .street, "streetaddress": .street, "addressline1": .street,
        "zip": .zipCode, "zipcode": .zipCode, "postcode": .zipCode, "postalcode": .zipCode,
        "phone": .phone, "phonenumber": .phone, "telephone": .phone, "mobile": .phone, "tel": .phone,
        "url": .url, "uri": .url, "website": .url, "homepage": .url, "link": .url, "href": .url,
        "host": .hostname, "hostname": .hostname, "domain": .hostname,
        "ip": .ipv4, "ipaddress": .ipv4, "ipv4": .ipv4,
        "uuid": .uuid, "guid": .uuid, "id": .identifier,
        "date": .date, "birthday": .date, "birthdate": .date, "dateofbirth": .date,
        "timestamp": .dateTime, "datetime": .dateTime,
        "company": .company, "companyname": .company, "organization": .company, "organisation": .company,
    ]

    /// The kind of a lowercased name: an exact name, else a telling end (`homeemail`,
    /// `avatarurl`, `ownerid`, `createdat`, `startdate`).
    private static let endings: [(String, RealisticText)] = [
        ("email", .email), ("firstname", .firstName), ("lastname", .lastName), ("username", .username),
        ("password", .password), ("city", .city), ("country", .country), ("phone", .phone),
        ("phonenumber", .phone), ("url", .url), ("hostname", .hostname), ("uuid", .uuid), ("date", .date),
        ("timestamp", .dateTime), ("datetime", .dateTime), ("zipcode", .zipCode),
        ("postalcode", .zipCode),
    ]

    private static func suffixKind(_ name: String) -> RealisticText? {
        if let kind = exactNames[name] { return kind }
        // Lengths in UTF-8, not counted in characters on every call: an ending is ASCII, so a
        // name that ends with it and is no longer in bytes is the ending itself.
        let length = name.utf8.count
        for (ending, kind) in endings where length > ending.utf8.count && name.hasSuffix(ending) { return kind }
        if name == "email" || name == "emailaddress" { return .email }
        return nil
    }

    package static let firstNames = [
        "Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Margaret", "Dennis", "Frances", "John", "Radia",
        "Ken", "Hedy", "Tim", "Katherine", "Linus",
    ]
    package static let lastNames = [
        "Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Hamilton", "Ritchie", "Allen", "Backus",
        "Perlman", "Thompson", "Lamarr", "Berners-Lee", "Johnson", "Torvalds",
    ]
    package static let cities = [
        "Lisbon", "Oslo", "Kyoto", "Toronto", "Nairobi", "Lyon", "Porto", "Dublin", "Melbourne", "Seville",
        "Bergen", "Quebec",
    ]
    package static let countries: [(name: String, code: String)] = [
        ("Portugal", "PT"), ("Norway", "NO"), ("Japan", "JP"), ("Canada", "CA"), ("Kenya", "KE"), ("France", "FR"),
        ("Ireland", "IE"), ("Australia", "AU"), ("Spain", "ES"), ("Chile", "CL"),
    ]
    static let streets = ["Main Street", "Oak Avenue", "Harbour Road", "Mill Lane", "Station Road", "Park Place"]
    static let companies = ["Acme Ltd", "Globex", "Initech", "Umbrella Labs", "Stark Works", "Wayne Foods"]
    static let words = ["alpha", "harbor", "meadow", "copper", "lantern", "orbit", "willow", "summit"]

    /// A text of this kind, its choices drawn with `random`.
    package func text(using random: inout SplitMix64) -> String {
        func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(random.next() % 10)) })
        }
        switch self {
        case .firstName: return pick(Self.firstNames)
        case .lastName: return pick(Self.lastNames)
        case .fullName: return pick(Self.firstNames) + " " + pick(Self.lastNames)
        case .username: return (pick(Self.firstNames) + pick(Self.lastNames)).lowercased() + digits(2)
        case .email:
            let first = pick(Self.firstNames).lowercased()
            let last = pick(Self.lastNames).lowercased().replacing("-", with: "")
            return "\(first).\(last)@example.com"
        case .password: return "Pw-" + pick(Self.words) + digits(4) + "!"
        case .city: return pick(Self.cities)
        case .country: return pick(Self.countries).name
        case .countryCode: return pick(Self.countries).code
        case .street: return "\(1 + random.next() % 200) " + pick(Self.streets)
        case .zipCode: return digits(5)
        case .phone: return "+1-555-" + digits(3) + "-" + digits(4)
        case .url: return "https://example.com/" + pick(Self.words)
        case .hostname: return pick(Self.words) + ".example.com"
        case .ipv4: return "192.0.2.\(1 + random.next() % 250)"
        case .uuid, .identifier: return Self.uuid(using: &random)
        case .date: return "2024-05-\(Self.twoDigits(1 + Int(random.next() % 28)))"
        case .dateTime:
            let day = Self.twoDigits(1 + Int(random.next() % 28))
            let hour = Self.twoDigits(Int(random.next() % 24))
            let minute = Self.twoDigits(Int(random.next() % 60))
            return "2024-05-\(day)T\(hour):\(minute):00Z"
        case .company: return pick(Self.companies)
        case .word: return pick(Self.words)
        }
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// A version 4 UUID in lower case.
    static func uuid(using random: inout SplitMix64) -> String {
        let hex = Array("0123456789abcdef")
        var digits = (0..<32).map { _ in hex[Int(random.next() % 16)] }
        digits[12] = "4"
        digits[16] = "8"
        let text = String(digits)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(text.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }
}
