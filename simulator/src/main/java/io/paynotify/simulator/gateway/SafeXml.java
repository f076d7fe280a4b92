package io.paynotify.simulator.gateway;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * WeChat Pay v2's flat {@code <xml>} documents, read with DTDs and external entities refused (they are written by
 * {@link io.paynotify.simulator.sign.WechatV2Signer#xml}).
 */
final class SafeXml {

    private SafeXml() {}

    /**
     * The root {@code <xml>} element's children as name → text, in document order.
     *
     * @throws IllegalArgumentException when the bytes are not such a document (or declare a DTD, or repeat a field)
     */
    static Map<String, String> parse(byte[] xml) {
        Document document;
        try {
            DocumentBuilder builder = factory().newDocumentBuilder();
            builder.setErrorHandler(new DefaultHandler()); // no stderr noise for bad input; errors still throw
            document = builder.parse(new ByteArrayInputStream(xml));
        } catch (SAXException | IOException e) {
            throw new IllegalArgumentException("not well-formed XML without a DTD: " + e.getMessage(), e);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK XML parser cannot be hardened: " + e.getMessage(), e);
        }
        Element root = document.getDocumentElement();
        if (!"xml".equals(root.getNodeName())) {
            throw new IllegalArgumentException("the root element is <" + root.getNodeName() + ">, not <xml>");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        NodeList children = root.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            Node child = children.item(i);
            if (child.getNodeType() == Node.ELEMENT_NODE
                    && fields.put(child.getNodeName(), child.getTextContent()) != null) {
                throw new IllegalArgumentException("the field <" + child.getNodeName() + "> appears twice");
            }
        }
        return fields;
    }

    private static DocumentBuilderFactory factory() throws ParserConfigurationException {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        // The WeChat v2 XXE advisory (CVE-2018-13439): refuse any DOCTYPE, and with it every entity trick.
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        factory.setXIncludeAware(false);
        factory.setExpandEntityReferences(false);
        factory.setNamespaceAware(false);
        return factory;
    }
}
