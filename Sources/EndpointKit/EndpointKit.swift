// EndpointKit is what an app imports: EndpointCore's endpoints, client and decoding, with
// URLSessionTransport beside them. A tool that sends with another transport (libcurl) imports
// EndpointCore alone and does not link URLSession's networking.
@_exported import EndpointCore
