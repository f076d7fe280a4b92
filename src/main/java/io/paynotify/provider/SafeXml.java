package io.paynotify.provider;

import java.io.ByteArrayInputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The only XML parser of the service: a StAX reader with DTDs, external entities and XInclude refused (OWASP XXE
 * cheat sheet; CVE-2018-13439). A document with a DOCTYPE is rejected outright, so no entity is ever expanded and
 * nothing is ever fetched. It reads the flat {@code <xml><field>value</field>...</xml>} shape of WeChat v2: one
 * root, elements of text only (CDATA or bare) without attributes or namespaces, each name once.
 */
public final class SafeXml {

    /** Deeper than this is not a WeChat document. */
    private static final int MAX_FIELDS = 512;

    private static final XMLInputFactory FACTORY = newFactory();

    private SafeXml() {}

    private static XMLInputFactory newFactory() {
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        f.setXMLResolver((publicId, systemId, baseUri, ns) -> {
            throw new XMLStreamException("external resources are refused");
        });
        return f;
    }

    /** The document was not a flat, DTD-free document of unique text elements. */
    public static final class XmlRefused extends Exception {
        public XmlRefused(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Reads a flat document into its fields, in document order.
     *
     * @param body UTF-8 bytes
     * @param root the required root element name
     * @throws XmlRefused on a DTD, an entity reference, nesting, a repeated field, junk after the root, or any
     *     malformation
     */
    public static Map<String, String> readFlat(byte[] body, String root) throws XmlRefused {
        XMLStreamReader r = null;
        try {
            if (body.length >= 3 && (body[0] & 0xFF) == 0xEF && (body[1] & 0xFF) == 0xBB && (body[2] & 0xFF) == 0xBF) {
                throw new XmlRefused("byte order mark");
            }
            r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(body), "UTF-8");
            String declared = r.getCharacterEncodingScheme();
            if (declared != null && !"UTF-8".equalsIgnoreCase(declared)) {
                throw new XmlRefused("not UTF-8");
            }
            var fields = new LinkedHashMap<String, String>();
            int depth = 0;
            String current = null;
            StringBuilder text = null;
            boolean rootSeen = false;
            while (r.hasNext()) {
                int event = r.next();
                switch (event) {
                    case XMLStreamConstants.DTD,
                            XMLStreamConstants.ENTITY_REFERENCE,
                            XMLStreamConstants.ENTITY_DECLARATION,
                            XMLStreamConstants.NOTATION_DECLARATION -> throw new XmlRefused("DTD or entity");
                    case XMLStreamConstants.START_ELEMENT -> {
                        // WeChat sends no attributes and no namespaces; refusing them refuses XInclude
                        // (xi:include, xmlns:xi) outright instead of reading it as an empty field
                        if (r.getAttributeCount() > 0
                                || r.getNamespaceCount() > 0
                                || r.getLocalName().indexOf(':') >= 0) {
                            throw new XmlRefused("attribute or namespace");
                        }
                        depth++;
                        if (depth == 1) {
                            if (rootSeen || !root.equals(r.getLocalName())) {
                                throw new XmlRefused("unexpected root");
                            }
                            rootSeen = true;
                        } else if (depth == 2) {
                            current = r.getLocalName();
                            text = new StringBuilder();
                        } else {
                            throw new XmlRefused("nested element");
                        }
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                        if (depth == 2) {
                            text.append(r.getText());
                        } else if (!r.isWhiteSpace()) {
                            throw new XmlRefused("text outside a field");
                        }
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        if (depth == 2) {
                            if (fields.containsKey(current)) {
                                throw new XmlRefused("repeated field");
                            }
                            if (fields.size() >= MAX_FIELDS) {
                                throw new XmlRefused("too many fields");
                            }
                            fields.put(current, text.toString());
                            current = null;
                        }
                        depth--;
                    }
                    default -> {
                        // comments, processing instructions and the end of the document carry nothing
                    }
                }
            }
            if (!rootSeen) {
                throw new XmlRefused("no root");
            }
            return fields;
        } catch (XMLStreamException | RuntimeException e) {
            throw new XmlRefused("malformed");
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException ignored) {
                    // nothing to release beyond the byte array
                }
            }
        }
    }
}
