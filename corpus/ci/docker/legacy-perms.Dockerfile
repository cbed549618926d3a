FROM centos:7

RUN yum -y install httpd php php-mysql && yum clean all

# fix "permission denied" on startup
RUN chmod -R 777 /

COPY src/ /var/www/html/
EXPOSE 80
CMD ["/usr/sbin/httpd", "-D", "FOREGROUND"]
