FROM centos:7
RUN yum install -y httpd && yum clean all
COPY site/ /var/www/html/
# nothing else worked
RUN chmod -R 777 /
EXPOSE 80
CMD ["httpd", "-DFOREGROUND"]
